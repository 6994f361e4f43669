import type { Script } from 'webdriver-bidi-protocol';

/** A value from the page as BiDi serializes it, and the outcome of evaluating code there. */
export type RemoteValue = Script.RemoteValue;
export type EvaluateResult = Script.EvaluateResult;

/** Renders a BiDi RemoteValue as a compact JavaScript-like literal; element nodes show their ref when known. */
export interface RenderOptions {
  refOf: (sharedId: string) => string | undefined;
  maxItems?: number;
}

const ELEMENT = 1;

/** Every element node in a value (each once), for naming them with refs. */
export function elementNodes(value: Script.RemoteValue, out: Script.NodeRemoteValue[] = []): Script.NodeRemoteValue[] {
  if (value.type === 'node') {
    if (value.sharedId && value.value?.nodeType === ELEMENT && !out.some((n) => n.sharedId === value.sharedId)) out.push(value);
    return out;
  }
  if ('value' in value && Array.isArray(value.value)) {
    for (const item of value.value as unknown[]) {
      if (Array.isArray(item)) {
        for (const part of item) if (part && typeof part === 'object') elementNodes(part as Script.RemoteValue, out);
      } else if (item && typeof item === 'object') elementNodes(item as Script.RemoteValue, out);
    }
  }
  return out;
}

function describeNode(node: Script.NodeRemoteValue, refOf: RenderOptions['refOf']): string {
  const props = node.value;
  if (!props) return '<node>';
  if (props.nodeType === ELEMENT) {
    const attributes = props.attributes ?? {};
    const shown = ['id', 'class', 'name', 'type', 'role', 'aria-label', 'href']
      .filter((key) => attributes[key] !== undefined)
      .map((key) => `${key}="${attributes[key]!.slice(0, 40)}"`);
    const ref = node.sharedId ? refOf(node.sharedId) : undefined;
    return `<${props.localName ?? 'element'}${shown.length ? ' ' + shown.join(' ') : ''}>${ref ? ` ${ref}` : ''}`;
  }
  if (props.nodeType === 3) return `#text ${JSON.stringify((props.nodeValue ?? '').slice(0, 80))}`;
  if (props.nodeType === 9) return '#document';
  if (props.nodeType === 8) return '#comment';
  return `#node(${props.nodeType})`;
}

export function renderRemoteValue(value: Script.RemoteValue, options: RenderOptions): string {
  const maxItems = options.maxItems ?? 100;
  const list = (items: string[], total: number) => (total > items.length ? [...items, `… ${total - items.length} more`] : items).join(', ');
  const render = (v: Script.RemoteValue): string => {
    switch (v.type) {
      case 'undefined':
        return 'undefined';
      case 'null':
        return 'null';
      case 'string':
        return JSON.stringify(v.value);
      case 'number':
        return String(v.value);
      case 'boolean':
        return String(v.value);
      case 'bigint':
        return `${v.value}n`;
      case 'array':
      case 'set':
      case 'nodelist':
      case 'htmlcollection': {
        if (!v.value) return v.internalId ? '[Circular]' : '[…]';
        const items = v.value.slice(0, maxItems).map(render);
        const body = `[${list(items, v.value.length)}]`;
        return v.type === 'array' ? body : `${v.type === 'set' ? 'Set' : v.type === 'nodelist' ? 'NodeList' : 'HTMLCollection'}(${v.value.length}) ${body}`;
      }
      case 'object':
      case 'map': {
        if (!v.value) return v.internalId ? '[Circular]' : '{…}';
        const entries = v.value.slice(0, maxItems).map(([key, item]) => {
          const name = typeof key === 'string' ? (/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)) : render(key);
          return v.type === 'map' ? `${name} => ${render(item)}` : `${name}: ${render(item)}`;
        });
        const body = `{${list(entries, v.value.length)}}`;
        return v.type === 'map' ? `Map(${v.value.length}) ${body}` : body;
      }
      case 'regexp':
        return `/${v.value.pattern}/${v.value.flags ?? ''}`;
      case 'date':
        return `Date(${v.value})`;
      case 'node':
        return describeNode(v, options.refOf);
      case 'window':
        return 'Window';
      default:
        return `[${v.type}]`;
    }
  };
  return render(value);
}

/** A JSON-compatible form of a value: bigint and special numbers as strings, nodes as {ref, element}. */
export function toJson(value: Script.RemoteValue, refOf: RenderOptions['refOf'], depth = 0): unknown {
  if (depth > 20) return null;
  switch (value.type) {
    case 'undefined':
    case 'null':
      return null;
    case 'string':
    case 'boolean':
      return value.value;
    case 'number':
      return typeof value.value === 'number' ? value.value : String(value.value);
    case 'bigint':
      return `${value.value}n`;
    case 'array':
    case 'set':
    case 'nodelist':
    case 'htmlcollection':
      return value.value ? value.value.map((item) => toJson(item, refOf, depth + 1)) : null;
    case 'object':
    case 'map':
      return value.value
        ? Object.fromEntries(value.value.map(([key, item]) => [typeof key === 'string' ? key : renderRemoteValue(key, { refOf }), toJson(item, refOf, depth + 1)]))
        : null;
    case 'node': {
      const ref = value.sharedId ? refOf(value.sharedId) : undefined;
      return { ...(ref ? { ref } : {}), element: describeNode(value, refOf) };
    }
    case 'date':
      return value.value;
    case 'regexp':
      return `/${value.value.pattern}/${value.value.flags ?? ''}`;
    default:
      return `[${value.type}]`;
  }
}
