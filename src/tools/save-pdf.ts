import { z } from 'zod';
import { saveOutput } from '../browser/group/index.js';
import { defineTool, tabIdField } from './tool.js';

/** The `pdf` capability (--caps pdf): the page printed to a PDF file in the output dir. */
export const savePdfTool = defineTool({
  name: 'save_pdf',
  title: 'Save the page as PDF',
  description: 'Prints the page to a PDF file in the output dir; returns its path.',
  details:
    'Prints the tab\'s page as Firefox would (print styles, backgrounds included, US Letter portrait) through WebDriver BiDi ' +
    '`browsingContext.print` and writes it into the output dir, readable by this user only. The reply gives the path and size, not the file.',
  scope: 'tab',
  group: 'pdf',
  errors: [],
  input: z.strictObject({ tabId: tabIdField, filename: z.string().min(1).max(120).optional().describe('Default: page-<time>.pdf.') }),
  output: z.object({ path: z.string(), bytes: z.number() }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  script: { step: true, secret: null },
  async handler(context, args) {
    const pdf = Buffer.from(await context.tab.printPdf(), 'base64');
    const name = args.filename && !args.filename.toLowerCase().endsWith('.pdf') ? `${args.filename}.pdf` : args.filename;
    const path = await saveOutput(context.group.outputDir, `tab${context.tab.id}-page`, 'pdf', pdf, name);
    return { structured: { path, bytes: pdf.length }, text: `Saved tab ${context.tab.id} as a PDF (${pdf.length} bytes): ${path}` };
  },
});
