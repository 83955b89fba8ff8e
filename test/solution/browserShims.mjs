/**
 * The one browser API solution.js 1.7.0 reads files with that Node 20 lacks: FileReader (jszip packs
 * the Solution's zip through it, and solution-common reads a Blob's text through it). Node has
 * fetch, FormData, Blob and File; this fills the FileReader methods they use from Blob's own readers.
 */
class NodeFileReader {
  result = null;
  error = null;
  readyState = 0;
  onload = null;
  onerror = null;
  onloadend = null;

  readAsArrayBuffer(blob) {
    this.#read(blob.arrayBuffer());
  }

  readAsText(blob) {
    this.#read(blob.text());
  }

  readAsDataURL(blob) {
    this.#read(blob.arrayBuffer().then((bytes) => `data:${blob.type || 'application/octet-stream'};base64,${Buffer.from(bytes).toString('base64')}`));
  }

  #read(promise) {
    this.readyState = 1;
    promise.then(
      (result) => this.#done('onload', result, null),
      (error) => this.#done('onerror', null, error),
    );
  }

  #done(handler, result, error) {
    this.readyState = 2;
    this.result = result;
    this.error = error;
    const event = { target: this };
    this[handler]?.(event);
    this.onloadend?.(event);
  }
}

globalThis.FileReader ??= NodeFileReader;
