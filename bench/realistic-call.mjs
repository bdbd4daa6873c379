// One realistic AI-receptionist call as the voice platform reports it when it ends: a booking call of
// about three minutes, its transcript (~1,840 characters, 26 turns) and its summary (~175 characters).
// The seed's calls (worker/db/factories.ts) carry shorter conversations (3-9 turns); the load proof's
// writes and the storage figures (bench/storage.mjs) use this one so bytes and write cost are those
// of a full call.
const FIRST = ["Maria", "James", "Ana", "Robert", "Linda", "Carlos", "Patricia", "Michael"];
const LAST = ["Lopez", "Smith", "Garcia", "Johnson", "Martinez", "Brown", "Rodriguez", "Davis"];
const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const SERVICES = ["eye exam", "hearing test", "contact lens fitting"];

/** The i-th call's customer, day and service: every call differs a little, as real ones do. */
function parts(i) {
  return {
    first: FIRST[i % FIRST.length],
    last: LAST[Math.floor(i / FIRST.length) % LAST.length],
    day: DAYS[i % DAYS.length],
    time: `${9 + (i % 8)}:${i % 2 ? "30" : "00"} ${9 + (i % 8) < 12 ? "AM" : "PM"}`,
    service: SERVICES[i % SERVICES.length],
    phone: `(305) 555-${String(1000 + (i % 9000)).padStart(4, "0")}`,
  };
}

export function realisticTranscript(i) {
  const p = parts(i);
  return [
    "AI: Thank you for calling Vision and Hearing Center Miami. This is the virtual receptionist. How can I help you today?",
    `Human: Hi, yes, I'd like to book a ${p.service}. It's been a while since my last one.`,
    `AI: Of course, I can help with that. May I have your first and last name, please?`,
    `Human: Sure, it's ${p.first} ${p.last}.`,
    `AI: Thank you, ${p.first}. And what is the best phone number to reach you?`,
    `Human: It's ${p.phone}.`,
    `AI: Got it, ${p.phone}. Have you visited our Miami store before?`,
    "Human: Yes, I came in about two years ago for glasses.",
    "AI: Welcome back. Do you have vision or hearing insurance you'd like us to check before the visit?",
    "Human: I have insurance through my work, but I'm not sure it covers this.",
    "AI: No problem. Please bring your insurance card and the store will check your coverage when you arrive.",
    `Human: Okay. What days do you have this week?`,
    `AI: I have openings on ${p.day} at ${p.time}, or Thursday afternoon at 3:30 PM. Which would you prefer?`,
    `Human: ${p.day} at ${p.time} works for me.`,
    `AI: Great. I've booked your ${p.service} at the Miami store for ${p.day} at ${p.time}. The visit takes about forty-five minutes.`,
    "Human: Do I need to bring anything besides the insurance card?",
    "AI: Please bring your current glasses or contact lenses, a list of any medications, and a photo ID.",
    "Human: And where do I park?",
    "AI: There is free parking in front of the store, and the entrance is next to the pharmacy.",
    "Human: Perfect. Will I get a reminder?",
    `AI: Yes, you'll receive a text message reminder the day before at ${p.phone}. You can reply to it to reschedule.`,
    "Human: That's great, thank you so much.",
    `AI: You're welcome, ${p.first}. Is there anything else I can help you with today?`,
    "Human: No, that's everything.",
    `AI: Thank you for calling Vision and Hearing Center Miami. We look forward to seeing you on ${p.day}. Goodbye!`,
    "Human: Bye.",
  ].join("\n");
}

export function realisticSummary(i) {
  const p = parts(i);
  return (
    `${p.first} ${p.last}, a returning customer, booked a ${p.service} at the Miami store for ${p.day} at ${p.time}; ` +
    "told to bring the insurance card, current glasses and ID; reminder by text."
  );
}

/**
 * The voice platform's end-of-call report of call `callId` (an inbound call of `assistantId` that began
 * `secondsAgo` seconds before now and lasted three minutes), as the webhook's JSON body.
 */
export function endOfCallReport(i, { assistantId, callId, secondsAgo = 200 }) {
  const start = Date.now() - secondsAgo * 1000;
  const iso = (ms) => new Date(ms).toISOString();
  return JSON.stringify({
    message: {
      type: "end-of-call-report",
      endedReason: "customer-ended-call",
      startedAt: iso(start),
      endedAt: iso(start + 180_000),
      cost: 0.2145,
      analysis: { summary: realisticSummary(i) },
      artifact: { transcript: realisticTranscript(i), messages: [] },
      call: {
        id: callId,
        type: "inboundPhoneCall",
        status: "ended",
        assistantId,
        customer: { number: `+1305555${String(1000 + (i % 9000)).padStart(4, "0")}` },
        createdAt: iso(start - 2000),
      },
    },
  });
}
