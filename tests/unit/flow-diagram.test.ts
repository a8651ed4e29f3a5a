// @vitest-environment jsdom
// jsdom for its DOMParser: with image/svg+xml it is a strict XML parser, so it checks that the SVG is well-formed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flowDiagram } from '../../src/flow-tools/diagram';

// import.meta.url is not a file: URL under the jsdom environment; the directory is.
const root = join(import.meta.dirname, '..', '..');
const flowText = (name: string) => readFileSync(join(root, 'flows', `${name}.json`), 'utf8');

// The flow file as data, loosely typed on purpose: the walker below reads it without the lint's types.
type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- raw flow JSON, walked by hand

/** Parses the SVG as strict XML (jsdom reads image/svg+xml with an XML parser); fails on any well-formedness error. */
function parseSvg(svg: string): Document {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  expect(error?.textContent, 'the SVG is not well-formed XML').toBeUndefined();
  expect(doc.documentElement.nodeName).toBe('svg');
  return doc;
}

interface ExpectedState {
  key: string;
  meta: Loose;
}
interface ExpectedTransition {
  pointer: string;
  source: string;
  target: string;
  /** "NEXT", or "<actor> done" / "<actor> error" for an invoked actor's result. */
  event: string;
  guard: string | undefined;
}

/**
 * What the diagram must show, read from the flow JSON independently of the code under test:
 * every state (dotted path) and every transition (by JSON pointer), with the target resolved as
 * XState does for the forms the flows use ("#flow.a", ".a", "a" = a sibling).
 */
function expectedOf(flow: Loose): { states: ExpectedState[]; transitions: ExpectedTransition[] } {
  const states: ExpectedState[] = [];
  const transitions: ExpectedTransition[] = [];
  const resolve = (from: string[], target: string): string => {
    if (target.startsWith('#')) return target.slice(1).split('.').slice(1).join('.');
    if (target.startsWith('.')) return [...from, target.slice(1)].join('.');
    return [...from.slice(0, -1), target].join('.');
  };
  const add = (from: string[], event: string, value: unknown, pointer: string) => {
    if (Array.isArray(value)) return value.forEach((v, i) => add(from, event, v, `${pointer}/${i}`));
    const t = typeof value === 'string' ? { target: value } : (value as Loose);
    const guard = typeof t.guard === 'string' ? t.guard : t.guard?.type;
    transitions.push({ pointer, source: from.join('.'), target: t.target ? resolve(from, t.target) : from.join('.'), event, guard });
  };
  const walk = (states_: Loose, path: string[], pointer: string) => {
    for (const [key, state] of Object.entries(states_) as Array<[string, Loose]>) {
      const here = [...path, key];
      const at = `${pointer}/states/${key}`;
      states.push({ key: here.join('.'), meta: state.meta ?? {} });
      for (const [event, value] of Object.entries(state.on ?? {})) add(here, event, value, `${at}/on/${event}`);
      if (state.always) add(here, 'always', state.always, `${at}/always`);
      const invokes = Array.isArray(state.invoke) ? state.invoke : state.invoke ? [state.invoke] : [];
      invokes.forEach((inv: Loose, i: number) => {
        const base = Array.isArray(state.invoke) ? `${at}/invoke/${i}` : `${at}/invoke`;
        if (inv.onDone) add(here, `${inv.src} done`, inv.onDone, `${base}/onDone`);
        if (inv.onError) add(here, `${inv.src} error`, inv.onError, `${base}/onError`);
      });
      if (state.states) walk(state.states, here, at);
    }
  };
  walk(flow.states, [], '');
  return { states, transitions };
}

const mermaidId = (key: string) => key.split('.').join('__');

/** The quoted label of a state in the Mermaid text, with Mermaid's entity codes (#60; …) decoded. */
function mermaidLabel(mermaid: string, key: string): string {
  const line = mermaid.split('\n').find((l) => new RegExp(`^\\s*state ".*" as ${mermaidId(key)}\\{?$`).test(l));
  expect(line, `no state line for ${key}`).toBeDefined();
  const quoted = /state "(.*)" as /.exec(line ?? '')?.[1] ?? '';
  return quoted.replace(/#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

describe.each(['general', 'child'])('the diagram of flows/%s.json', (name) => {
  const flow = JSON.parse(flowText(name)) as Loose;
  const { mermaid, svg } = flowDiagram(flow);
  const doc = parseSvg(svg);
  const { states, transitions } = expectedOf(flow);
  const total = flow.meta.totalSteps as number;

  it('shows every state with its path, step counter and title, in both outputs', () => {
    expect(states.length).toBeGreaterThan(15);
    for (const { key, meta } of states) {
      const label = mermaidLabel(mermaid, key);
      const svgState = doc.querySelector(`g.state[data-state="${key}"]`);
      expect(svgState, `no SVG state ${key}`).not.toBeNull();
      const svgText = svgState?.textContent ?? '';
      expect(label).toContain(key.split('.').at(-1));
      expect(svgText).toContain(key.split('.').at(-1));
      for (const shown of [meta.path, meta.title, meta.step !== undefined ? `${meta.step}/${total}` : undefined, meta.exitTo]) {
        if (shown === undefined) continue;
        expect(label, `${key} in Mermaid`).toContain(shown);
        expect(svgText, `${key} in SVG`).toContain(shown);
      }
    }
    expect(doc.querySelectorAll('g.state')).toHaveLength(states.length);
  });

  it('shows every transition with its event and guard, in both outputs', () => {
    expect(transitions.length).toBeGreaterThan(20);
    const edgeLines = mermaid.split('\n').filter((l) => l.includes(' --> ') && !l.includes('[*]'));
    for (const t of transitions) {
      const words = [t.event, t.guard && `[${t.guard}]`].filter((w): w is string => Boolean(w));
      const line = edgeLines.find((l) => l.trim().startsWith(`${mermaidId(t.source)} --> ${mermaidId(t.target)} : `) && words.every((w) => l.includes(w)));
      expect(line, `no Mermaid line for ${t.pointer}`).toBeDefined();
      const svgEdge = doc.querySelector(`g.transition[data-pointer="${t.pointer}"]`);
      expect(svgEdge, `no SVG edge for ${t.pointer}`).not.toBeNull();
      expect(svgEdge?.getAttribute('data-source')).toBe(t.source);
      expect(svgEdge?.getAttribute('data-target')).toBe(t.target);
      const label = svgEdge?.querySelector('g.label')?.textContent ?? '';
      for (const w of words) expect(label, t.pointer).toContain(w);
      expect(svgEdge?.querySelector('path')?.getAttribute('d')).toMatch(/^M[\d.-]+,[\d.-]+( L[\d.-]+,[\d.-]+)+$/);
    }
    expect(doc.querySelectorAll('g.transition[data-pointer]')).toHaveLength(transitions.length);
  });

  it('marks the start, the pages entered from outside, the final states and the hand-over to the identity provider', () => {
    expect(mermaid).toContain(`\n  [*] --> ${mermaidId(flow.initial)}\n`);
    expect(doc.querySelector('circle.start[data-scope=""]')).not.toBeNull();

    const entry = states.filter((s) => s.meta.entry === true).map((s) => s.key);
    expect(entry.length).toBeGreaterThanOrEqual(3); // landing, error page, eKYC return
    expect([...doc.querySelectorAll('g.state.entry')].map((g) => g.getAttribute('data-state'))).toEqual(entry);
    expect(mermaid).toContain(`\n  class ${entry.map(mermaidId).join(',')} entry\n`);
    for (const key of entry) expect(mermaidLabel(mermaid, key)).toContain('entered from outside');

    const finals = Object.entries(flow.states as Loose)
      .filter(([, s]) => s.type === 'final')
      .map(([k]) => k);
    expect(finals.length).toBeGreaterThanOrEqual(1);
    for (const key of finals) {
      expect(mermaid).toContain(`\n  ${mermaidId(key)} --> [*]\n`);
      expect(doc.querySelector(`g.state.final[data-state="${key}"]`)).not.toBeNull();
    }

    // The state entered with "leaveForProvider", and a dotted edge to the page the provider returns to.
    const handOver = transitions.find((t) => flow && JSON.stringify(pointerValue(flow, t.pointer)).includes('leaveForProvider'));
    expect(handOver).toBeDefined();
    expect(doc.querySelector(`g.state.handover[data-state="${handOver?.target}"]`)?.textContent).toContain('leaves for the identity provider');
    const provider = doc.querySelector(`g.transition.provider[data-source="${handOver?.target}"]`);
    expect(provider?.getAttribute('data-target')).toBe(entry.find((k) => (flow.states[k] as Loose).invoke?.src === 'pollEkycStatus'));
  });

  it('shows the polling settings of the eKYC return page', () => {
    const callback = states.find((s) => (s.meta.path as string | undefined)?.endsWith('/ekyc-callback'));
    const input = (flow.states[callback?.key ?? ''] as Loose).invoke.input as { intervalMs: number; maxTries: number };
    const shown = `invoke pollEkycStatus (intervalMs=${input.intervalMs}, maxTries=${input.maxTries})`;
    expect(mermaidLabel(mermaid, callback?.key ?? '')).toContain(shown);
    expect(doc.querySelector(`g.state[data-state="${callback?.key}"]`)?.textContent).toContain(shown);
  });
});

function pointerValue(value: unknown, pointer: string): unknown {
  return pointer
    .slice(1)
    .split('/')
    .reduce<unknown>((v, segment) => (v as Loose | undefined)?.[segment], value);
}

describe('labels and escaping', () => {
  it('names the guard in brackets ("pollEkycStatus done [supplementRequested]") and actions after "/"', () => {
    const { mermaid, svg } = flowDiagram(JSON.parse(flowText('general')) as Loose);
    expect(mermaid).toContain('  ekycCallback --> supplement : pollEkycStatus done [supplementRequested]\n');
    expect(mermaid).toContain('  term --> verification : NEXT / storeBankCode\n');
    const doc = parseSvg(svg);
    expect(doc.querySelector('g.transition[data-pointer="/states/ekycCallback/invoke/onDone/0"] g.label')?.textContent).toBe('pollEkycStatus done [supplementRequested]');
  });

  it('escapes markup in Japanese titles and keeps the Japanese text as it is', () => {
    const flow = JSON.parse(flowText('general')) as Loose;
    const title = 'お客さま情報<入力> & "確認" \'A\' #1; {B}: `C` 100%%';
    flow.states.personal.meta.title = title;
    const { mermaid, svg } = flowDiagram(flow);

    const doc = parseSvg(svg);
    const lines = [...(doc.querySelector('g.state[data-state="personal"] text')?.querySelectorAll('tspan') ?? [])].map((t) => t.textContent);
    expect(lines).toContain(title);
    expect(svg).toContain('お客さま情報&lt;入力&gt; &amp; &quot;確認&quot; &#39;A&#39;');

    const line = mermaid.split('\n').find((l) => l.endsWith(' as personal')) ?? '';
    expect(line).toContain('お客さま情報#60;入力#62; #38; #34;確認#34; \'A\' #35;1#59; #123;B#125;#58; #96;C#96; 100#37;#37;');
    // Only the delimiters of the label itself remain as raw quotes, and no raw markup gets through.
    expect(line.match(/"/g)).toHaveLength(2);
    expect(line).not.toMatch(/<(?!br\/>)/);
    expect(mermaidLabel(mermaid, 'personal')).toContain(title);
  });

  it('replaces characters XML forbids instead of writing a broken SVG', () => {
    const flow = JSON.parse(flowText('general')) as Loose;
    flow.states.branch.meta.title = 'お取引店\u0001の選択';
    const doc = parseSvg(flowDiagram(flow).svg);
    expect(doc.querySelector('g.state[data-state="branch"]')?.textContent).toContain('お取引店\ufffdの選択');
  });

  it('draws a transition without a target as a loop on its state', () => {
    const flow = JSON.parse(flowText('general')) as Loose;
    flow.states.branch.on.RETRY = { actions: ['clearSessionStorage'] };
    const { mermaid, svg } = flowDiagram(flow);
    expect(mermaid).toContain('  branch --> branch : RETRY / clearSessionStorage\n');
    const edge = parseSvg(svg).querySelector('g.transition[data-pointer="/states/branch/on/RETRY"]');
    expect([edge?.getAttribute('data-source'), edge?.getAttribute('data-target')]).toEqual(['branch', 'branch']);
  });

  it('is a pure function of the flow: the same JSON gives the same text', () => {
    const flow = JSON.parse(flowText('child')) as Loose;
    expect(flowDiagram(flow)).toEqual(flowDiagram(JSON.parse(flowText('child')) as Loose));
  });
});
