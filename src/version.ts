import { readFileSync } from 'node:fs';
import { packageFile } from './package-files.js';

const packageJson = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };

export const VERSION: string = packageJson.version;
