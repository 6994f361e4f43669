// Shapes of what the page scripts (src/page) return, as the server reads them.
export interface PageInfo {
  url: string;
  title: string;
  readyState: string;
  viewport: { width: number; height: number };
  scroll: { x: number; y: number };
}
