// The engine's plans as data, without a link: which steps of input an aimed action sends, which check the page must
// pass before each (the press check once the pointer has arrived, the focus check before the keys), and where.
import { expect } from 'chai';
import { clickThenKeysSteps, pressSteps } from '../../dist/browser/engine/plan.js';

const SAVE = { role: 'button', name: 'Save', selector: 'button#save' };

/** An aim at ref_3's element (doc1, local id 7) in the top document, at (60, 30). */
const aimed = (extra = {}, preparation = {}) => ({
  context: 'top',
  point: { x: 60, y: 30 },
  framePoint: { x: 60, y: 30 },
  inputContext: 'top',
  ref: 'ref_3',
  refArgs: { docId: 'doc1', localId: 7 },
  preparation: { url: 'http://x/', title: 'x', aim: { point: { x: 60, y: 30 }, target: SAVE, docId: 'doc1' }, ...preparation },
  probed: true,
  ...extra,
});

const types = (step) => step.input.flatMap((source) => source.actions.map((action) => action.type));
const keys = [[{ type: 'key', id: 'keyboard', actions: [{ type: 'keyDown', value: 'a' }, { type: 'keyUp', value: 'a' }] }]];

describe('unit: action plans (no link)', function () {
  it('a click by ref from elsewhere: the move alone, then the press behind the press check in the target\'s document', function () {
    const steps = pressSteps(aimed(), { x: 0, y: 0 }, 0, 1);
    expect(steps.map(types)).to.deep.equal([['pointerMove'], ['pointerDown', 'pointerUp']]);
    expect(steps[0].check).to.equal(undefined);
    expect(steps[1].check).to.deep.equal({ kind: 'press', context: 'top', args: { ref: { docId: 'doc1', localId: 7 }, point: { x: 60, y: 30 }, was: { role: 'button', name: 'Save' } } });
  });

  it('a click where the pointer rests, or at a coordinate: one step, no check', function () {
    expect(pressSteps(aimed(), { x: 60.2, y: 29.8 }, 0, 2).map(types)).to.deep.equal([['pointerMove', 'pointerDown', 'pointerUp', 'pointerDown', 'pointerUp']]);
    const atPoint = pressSteps(aimed({ ref: undefined, refArgs: undefined }), { x: 0, y: 0 }, 0, 1);
    expect(atPoint).to.have.length(1);
    expect(atPoint[0].check).to.equal(undefined);
  });

  it('through a tooltip the press is checked even where the pointer rests, and the check waits for it to go', function () {
    const steps = pressSteps(aimed({}, { aim: { point: { x: 60, y: 30 }, target: SAVE, docId: 'doc1', throughTooltip: true } }), { x: 60, y: 30 }, 0, 1);
    expect(steps).to.have.length(2);
    expect(steps[1].check.args.waitMs).to.equal(1_000);
  });

  it('an iframe by ref is split but not press-checked (its document holds no element of the ref)', function () {
    const steps = pressSteps(aimed({ intoFrame: true, context: 'frame-1' }), { x: 0, y: 0 }, 0, 1);
    expect(steps).to.have.length(2);
    expect(steps[1].check).to.equal(undefined);
  });

  it('modifiers are held around the press step', function () {
    const [step] = pressSteps(aimed(), { x: 60, y: 30 }, 0, 1, ['shift']);
    expect(step.input.map((source) => source.type)).to.deep.equal(['key', 'pointer']);
  });

  it('a type by ref: the click, then the keys behind the focus check (caret to the end for a selection field)', function () {
    const steps = clickThenKeysSteps(aimed({}, { typing: { append: 'selection' } }), { x: 0, y: 0 }, keys, 'tok', 500, 'top');
    expect(steps.map(types)).to.deep.equal([['pointerMove'], ['pointerDown', 'pointerUp'], ['keyDown', 'keyUp']]);
    expect(steps[1].check.kind).to.equal('press');
    expect(steps[2].check).to.deep.equal({ kind: 'focus', context: 'top', args: { ref: { docId: 'doc1', localId: 7 }, token: 'tok', waitMs: 0, caretToEnd: true } });
  });

  it('a type by ref in a frame waits for focus there; into an iframe by ref it is not focus-checked', function () {
    const inFrame = clickThenKeysSteps(aimed({ context: 'frame-1' }), { x: 60, y: 30 }, keys, 'tok', 500, 'top');
    expect(inFrame.at(-1).check.args.waitMs).to.equal(500);
    const intoFrame = clickThenKeysSteps(aimed({ context: 'frame-1', intoFrame: true }), { x: 60, y: 30 }, keys, 'tok', 500, 'top');
    expect(intoFrame.every((step) => !step.check)).to.equal(true);
  });

  it('a field that holds focus: only the keys, unchecked', function () {
    const steps = clickThenKeysSteps(aimed({}, { typing: { focused: true } }), { x: 0, y: 0 }, [...keys, ...keys], 'tok', 500, 'top');
    expect(steps.map(types)).to.deep.equal([['keyDown', 'keyUp'], ['keyDown', 'keyUp']]);
    expect(steps.every((step) => !step.check)).to.equal(true);
  });
});
