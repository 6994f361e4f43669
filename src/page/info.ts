import type { PageInfo } from '../contract/index.js';
import { documentId } from './registry.js';

export function pageInfo(): PageInfo {
  return {
    docId: documentId,
    url: location.href,
    title: document.title,
    readyState: document.readyState,
    viewport: { width: window.innerWidth, height: window.innerHeight },
    scroll: { x: Math.round(window.scrollX), y: Math.round(window.scrollY) },
  };
}
