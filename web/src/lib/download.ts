// File downloads of the reports: fetched through the request helper (so they carry the bearer and
// fail with its typed error), read as the stream arrives (so a big file shows its progress), then
// handed to the browser under the spec's file name.
import { formatCount } from "@shared/format";
import { apiRequest } from "./api";

/** Saves a blob under a file name through a temporary object URL and an <a download>. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.style.display = "none";
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    URL.revokeObjectURL(url);
  }
}

/** What has arrived of a download: bytes, CSV rows (lines after the header) and the size when known. */
export type DownloadProgress = { bytes: number; rows: number; totalBytes: number | null };

/** Progress is reported at most this often (and once at the end): a million rows arrive in thousands of chunks. */
export const PROGRESS_INTERVAL_MS = 150;

/** A progress line for a person: "12,345 rows · 1.2 MB" (of the total when the server sent one). */
export function describeProgress(p: DownloadProgress): string {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${formatCount(p.rows)} rows · ${mb(p.bytes)}${p.totalBytes ? ` of ${mb(p.totalBytes)}` : ""}`;
}

/**
 * GETs a file with the bearer and saves it as `fileName`; an untyped answer is saved as CSV.
 * `onProgress` hears the bytes and rows received so far while the stream arrives.
 */
export async function downloadFile(url: string, fileName: string, onProgress?: (p: DownloadProgress) => void): Promise<void> {
  const res = await apiRequest("GET", url);
  const type = res.headers.get("content-type") || "text/csv";
  const length = Number(res.headers.get("content-length"));
  const progress: DownloadProgress = { bytes: 0, rows: 0, totalBytes: Number.isFinite(length) && length > 0 ? length : null };
  const parts: BlobPart[] = [];
  const reader = res.body?.getReader();
  if (!reader) {
    parts.push(await res.arrayBuffer());
  } else {
    let newlines = 0;
    let last = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      progress.bytes += value.byteLength;
      for (let i = 0; i < value.length; i++) if (value[i] === 10) newlines++;
      progress.rows = Math.max(0, newlines - 1);
      const now = Date.now();
      if (onProgress && now - last >= PROGRESS_INTERVAL_MS) {
        last = now;
        onProgress({ ...progress });
      }
    }
    onProgress?.({ ...progress });
  }
  saveBlob(new Blob(parts, { type }), fileName);
}
