import type { StartupPhases } from '../browser/launch/index.js';

/**
 * `--verbose`: where a cold start went, each figure in ms since the launch began: the process spawned, its BiDi
 * endpoint printed, session.new answered, the browser ready (subscriptions, preload script), the first page done;
 * when the launch began, counted from this process's start (the modules loaded before it); whether a new
 * profile started from a saved first run.
 */
export function startupLine(command: string, phases: StartupPhases | null, firstPageAt: number | null): string {
  if (!phases) return `firefox-use ${command}: startup phases unknown (no browser was launched here)\n`;
  const parts = [`spawn ${Math.round(phases.spawn)}`, `endpoint ${Math.round(phases.endpoint)}`];
  if (phases.session !== undefined) parts.push(`session ${Math.round(phases.session)}`);
  if (phases.ready !== undefined) parts.push(`ready ${Math.round(phases.ready)}`);
  if (firstPageAt !== null) parts.push(`first page ${Math.round(firstPageAt - phases.startedAt)}`);
  const profile = phases.seeded === undefined ? '' : phases.seeded ? '; a new profile, started from a saved first run' : '; a new profile on its first run';
  return `firefox-use ${command}: startup in ms since launch: ${parts.join(', ')}; the launch began ${Math.round(phases.startedAt)} ms after this process started${profile}\n`;
}
