import { computerTool } from './computer.js';
import { testRefTool, testServerStateTool, testTextTool } from './computer/test-ref.js';
import { dialogTool } from './dialog.js';
import { findTool } from './find.js';
import { navigateTool } from './navigate.js';
import { readPageTool } from './read-page.js';
import { requestHumanTool } from './request-human.js';
import { tabsCloseTool } from './tabs-close.js';
import { tabsContextTool } from './tabs-context.js';
import { tabsCreateTool } from './tabs-create.js';
import { readConsoleTool } from './console.js';
import { fileUploadTool } from './file-upload.js';
import { formInputTool } from './form-input.js';
import { getPageTextTool } from './get-page-text.js';
import { javascriptTool } from './javascript.js';
import { readNetworkTool } from './network.js';
import { resizeWindowTool } from './resize-window.js';
import type { Tool } from './tool.js';
import { waitForTool } from './wait-for.js';
import { savePdfTool } from './save-pdf.js';
import { scriptExportTool } from './script-export.js';
import { cookiesClearTool, cookiesListTool, cookiesSetTool, storageStateSaveTool } from './storage.js';

/** Every tool, in the order clients list them. */
export const allTools: Tool[] = [tabsContextTool, tabsCreateTool, tabsCloseTool, navigateTool, computerTool, dialogTool, readPageTool, findTool, testRefTool, testTextTool, testServerStateTool,
  getPageTextTool, formInputTool, fileUploadTool, javascriptTool, readConsoleTool, readNetworkTool, resizeWindowTool, waitForTool, requestHumanTool,
  cookiesListTool, cookiesSetTool, cookiesClearTool, storageStateSaveTool, savePdfTool, scriptExportTool];
