// form_input's write in one page call: the delta's watch started, the field set, and the page's answer read, in the
// field's document at once (three round trips cost more than the write itself).
import type { DeltaFinishRequest, FieldResult, PageDelta } from '../contract/index.js';
import { deltaFinish, deltaStart } from './delta.js';
import { setFieldValue } from './forms.js';

export async function setFieldValueWatched(args: {
  field: { docId: string; localId: number; value: string | number | boolean | string[] };
  start: { token: string };
  finish: DeltaFinishRequest;
}): Promise<{ field: FieldResult; docId: string; delta: PageDelta }> {
  const { docId } = deltaStart(args.start);
  const field = setFieldValue(args.field);
  return { field, docId, delta: await deltaFinish(args.finish) };
}
