/**
 * Reading a Blob or File, with the FileReader fallback for engines without Blob.text() and
 * Blob.arrayBuffer() (older mobile browsers, and jsdom in the tests).
 */
function readWithFileReader<T>(blob: Blob, read: (reader: FileReader) => void, result: (reader: FileReader) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(result(reader));
    reader.onerror = () => reject(reader.error);
    read(reader);
  });
}

export function readBlobText(blob: Blob): Promise<string> {
  if (typeof blob.text === 'function') return blob.text();
  return readWithFileReader(
    blob,
    (reader) => reader.readAsText(blob),
    (reader) => String(reader.result),
  );
}

export function readBlobBytes(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return readWithFileReader(
    blob,
    (reader) => reader.readAsArrayBuffer(blob),
    (reader) => reader.result as ArrayBuffer,
  );
}
