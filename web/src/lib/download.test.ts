// Downloads read the stream as it arrives: progress (bytes, rows after the header) is reported while
// chunks come in and once at the end, and the saved file holds every chunk in order.
import { afterEach, describe, expect, it, vi } from "vitest";
import { describeProgress, downloadFile, PROGRESS_INTERVAL_MS, type DownloadProgress } from "./download";

function streamed(chunks: string[], delayMs: number, headers: Record<string, string> = {}) {
  const enc = new TextEncoder();
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i === chunks.length) return controller.close();
      await new Promise((r) => setTimeout(r, delayMs));
      controller.enqueue(enc.encode(chunks[i++]));
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/csv; charset=utf-8", ...headers } });
}

afterEach(() => vi.unstubAllGlobals());

describe("downloadFile", () => {
  it("reports bytes and rows as the stream arrives, then saves the whole file", async () => {
    const chunks = ["Call ID,Date\n", "a,1\nb,2\n", "c,3\n", "d,", "4\ne,5\n"];
    vi.stubGlobal("fetch", vi.fn(async () => streamed(chunks, PROGRESS_INTERVAL_MS + 20)));
    let saved: Blob | null = null;
    vi.spyOn(URL, "createObjectURL").mockImplementation((b) => {
      saved = b as Blob;
      return "blob:x";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
    const seen: DownloadProgress[] = [];
    await downloadFile("/api/export-report?x=1", "call-report.csv", (p) => seen.push(p));
    // Several reports while it arrived, growing, and a final one with every row after the header.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.map((p) => p.bytes)).toEqual([...seen.map((p) => p.bytes)].sort((a, b) => a - b));
    expect(seen[seen.length - 1]).toEqual({ bytes: chunks.join("").length, rows: 5, totalBytes: null });
    expect(seen[0].rows).toBeLessThan(5);
    expect(await saved!.text()).toBe(chunks.join(""));
    expect(saved!.type).toBe("text/csv; charset=utf-8");
  });

  it("says the total when the server sends a length", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => streamed(["h\n", "1\n"], 1, { "content-length": "4" })));
    vi.spyOn(URL, "createObjectURL").mockImplementation(() => "blob:x");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
    const seen: DownloadProgress[] = [];
    await downloadFile("/f", "f.csv", (p) => seen.push(p));
    expect(seen[seen.length - 1]).toEqual({ bytes: 4, rows: 1, totalBytes: 4 });
  });

  it("describes progress for a person, with thousands separators", () => {
    expect(describeProgress({ bytes: 1_572_864, rows: 12_345, totalBytes: null })).toBe("12,345 rows · 1.5 MB");
    expect(describeProgress({ bytes: 1_048_576, rows: 1, totalBytes: 2_097_152 })).toBe("1 rows · 1.0 MB of 2.0 MB");
  });
});
