// The copy behind a trusted paste (src/browser/engine/clipboard.ts): called with a user activation, so the browser lets
// document.execCommand('copy') write the clipboard.

/**
 * A copy command whose copy event we answer ourselves, first (window, capture) and alone (the page's own copy
 * handlers do not see it), so no selection or page DOM is touched. `copied` is false when the browser refused it.
 */
export function copyText({ text }: { text: string }): { copied: boolean } {
  let done = false;
  const onCopy = (event: ClipboardEvent): void => {
    event.clipboardData?.setData('text/plain', text);
    event.preventDefault();
    event.stopImmediatePropagation();
    done = true;
  };
  window.addEventListener('copy', onCopy, true);
  try {
    document.execCommand('copy');
  } catch {
    done = false;
  } finally {
    window.removeEventListener('copy', onCopy, true);
  }
  return { copied: done };
}
