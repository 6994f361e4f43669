import { computerTool } from './computer.js';
import { testRefTool, testTextTool } from './computer/test-ref.js';
import { dialogTool } from './dialog.js';
import { findTool } from './find.js';
import { navigateTool } from './navigate.js';
import { readPageTool } from './read-page.js';
import { tabsCloseTool } from './tabs-close.js';
import { tabsContextTool } from './tabs-context.js';
import { tabsCreateTool } from './tabs-create.js';
import type { Tool } from './tool.js';

/** Every tool, in the order clients list them. */
export const allTools: Tool[] = [tabsContextTool, tabsCreateTool, tabsCloseTool, navigateTool, computerTool, dialogTool, readPageTool, findTool, testRefTool, testTextTool];
