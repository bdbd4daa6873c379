// File downloads of the reports: fetched through the request helper (so they carry the bearer and
// fail with its typed error), then handed to the browser under the spec's file name.
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

/** GETs a file with the bearer and saves it as `fileName`; an untyped answer is saved as CSV. */
export async function downloadFile(url: string, fileName: string): Promise<void> {
  const res = await apiRequest("GET", url);
  const blob = await res.blob();
  saveBlob(blob.type ? blob : new Blob([blob], { type: "text/csv" }), fileName);
}
