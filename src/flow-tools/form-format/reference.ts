/**
 * The authoring reference of the form format, written from its meta-schema
 * (schemas/format/form.schema.json): every keyword with its description, where it may stand.
 * `npm run forms:reference` prints it; a unit test fails when a keyword has no description, so
 * the reference and an editor's hints are never silent about one.
 */

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A definition the meta-schema refers to ("#/definitions/field"), or the node itself. */
function resolved(node: Node, root: Node): Node {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/definitions/')) return node;
  const target = (root.definitions as Node | undefined)?.[ref.slice('#/definitions/'.length)];
  return isNode(target) ? { ...target, ...Object.fromEntries(Object.entries(node).filter(([key]) => key !== '$ref')) } : node;
}

export interface KeywordEntry {
  /** Where it stands, e.g. "properties.<field>.x-when". */
  path: string;
  description: string | undefined;
  /** The names a list of values allows. */
  values: readonly string[];
}

/** Every keyword of the format, each once, in the order of the meta-schema. */
export function keywordsOf(metaSchema: unknown): KeywordEntry[] {
  if (!isNode(metaSchema)) return [];
  const entries: KeywordEntry[] = [];
  const seen = new Set<string>();
  const walk = (node: Node, path: string) => {
    const properties = isNode(node.properties) ? node.properties : {};
    for (const [key, raw] of Object.entries(properties)) {
      if (!isNode(raw)) continue;
      const child = resolved(raw, metaSchema);
      const here = path === '' ? key : `${path}.${key}`;
      const enumValues = Array.isArray(child.enum) ? child.enum.map(String) : [];
      entries.push({ path: here, description: typeof raw.description === 'string' ? raw.description : typeof child.description === 'string' ? child.description : undefined, values: enumValues });
      const ref = typeof raw.$ref === 'string' ? raw.$ref : '';
      if (ref !== '' && seen.has(ref)) continue;
      if (ref !== '') seen.add(ref);
      walk(child, here);
      const items = isNode(child.items) ? resolved(child.items, metaSchema) : undefined;
      if (items) walk(items, `${here}[]`);
      const extra = child.additionalProperties;
      if (isNode(extra) && !seen.has(String(extra.$ref))) {
        if (typeof extra.$ref === 'string') seen.add(extra.$ref);
        walk(resolved(extra, metaSchema), `${here}.<name>`);
      }
    }
  };
  walk(metaSchema, '');
  return entries;
}

/** The reference as Markdown. */
export function referenceOf(metaSchema: unknown): string {
  const lines = ['# The form format: every keyword', '', 'Written from schemas/format/form.schema.json by npm run forms:reference.', ''];
  for (const { path, description, values } of keywordsOf(metaSchema)) {
    lines.push(`- \`${path}\`: ${description ?? '(no description)'}${values.length > 0 ? ` (${values.join(', ')})` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
