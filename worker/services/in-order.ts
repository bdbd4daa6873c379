// Reads sent together (one round trip) that must answer as if they had run one after the other.

/**
 * Waits for a check and a read under way together, and answers as if the check had run first: its
 * refusal wins over the read's failure.
 */
export async function inOrder<T>(check: Promise<unknown>, read: Promise<T>): Promise<T> {
  const [checked, value] = await Promise.allSettled([check, read]);
  if (checked.status === "rejected") throw checked.reason;
  if (value.status === "rejected") throw value.reason;
  return value.value;
}
