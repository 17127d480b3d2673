// SPDX-License-Identifier: GPL-3.0-or-later
// A tiny typed DOM helper: h('button', {class: 'x', testid: 'resign', onclick: …}, 'text').

export type Child = Node | string | number | null | undefined | false | Child[];

type Handler<E extends Event = Event> = (e: E) => void;

export interface Attrs {
  class?: string;
  testid?: string;
  style?: string;
  title?: string;
  href?: string;
  type?: string;
  value?: string;
  placeholder?: string;
  disabled?: boolean;
  checked?: boolean;
  selected?: boolean;
  readonly?: boolean;
  name?: string;
  id?: string;
  for?: string;
  role?: string;
  lang?: string;
  translate?: 'no' | 'yes';
  target?: string;
  download?: string;
  autocomplete?: string;
  rows?: number;
  min?: string;
  max?: string;
  step?: string;
  hidden?: boolean;
  tabindex?: number;
  list?: string;
  'aria-label'?: string;
  'aria-live'?: string;
  'aria-hidden'?: string;
  'aria-pressed'?: string;
  [data: `data-${string}`]: string | undefined;
  onclick?: Handler<MouseEvent>;
  oninput?: Handler;
  onchange?: Handler;
  onsubmit?: Handler<SubmitEvent>;
  onkeydown?: Handler<KeyboardEvent>;
}

const PROPS = new Set(['value', 'checked', 'selected', 'disabled', 'readonly', 'hidden']);

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs) as [string, unknown][]) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') {
        el.addEventListener(k.slice(2), v as EventListener);
      } else if (k === 'testid') {
        el.setAttribute('data-testid', String(v));
      } else if (k === 'class') {
        el.className = String(v);
      } else if (PROPS.has(k)) {
        (el as unknown as Record<string, unknown>)[k === 'readonly' ? 'readOnly' : k] = v;
        if (k !== 'value') el.setAttribute(k, '');
      } else {
        el.setAttribute(k, v === true ? '' : String(v));
      }
    }
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** Replaces the children of `el`. */
export function replace(el: Node, ...children: Child[]): void {
  while (el.firstChild) el.removeChild(el.firstChild);
  append(el, children);
}

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
const FIELDS = 'input[data-testid], select[data-testid], textarea[data-testid]';

/**
 * `replace` for a part of a page that is redrawn while the user fills its forms (a live game's panels): what the
 * user typed or chose in a field keeps, in the new field with the same `data-testid`, and so does the focus and
 * the caret. A field the user has not touched takes the new value.
 */
export function replaceKeepingInput(el: HTMLElement, ...children: Child[]): void {
  if (!el.dataset.keepsInput) {
    el.dataset.keepsInput = '1';
    const mark = (e: Event): void => {
      const f = e.target as HTMLElement;
      if (f.dataset?.testid) f.dataset.edited = '1';
    };
    el.addEventListener('input', mark);
    el.addEventListener('change', mark);
  }
  const kept = new Map<string, { value: string; checked: boolean }>();
  for (const f of el.querySelectorAll<Field>(FIELDS)) {
    if (f.dataset.edited) kept.set(f.dataset.testid ?? '', { value: f.value, checked: f instanceof HTMLInputElement && f.checked });
  }
  const active = document.activeElement as Field | null;
  const focused = active && el.contains(active) ? active.dataset.testid : undefined;
  const caret = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement ? [active.selectionStart, active.selectionEnd] : null;
  replace(el, ...children);
  for (const f of el.querySelectorAll<Field>(FIELDS)) {
    const k = kept.get(f.dataset.testid ?? '');
    if (!k) continue;
    if (f instanceof HTMLInputElement && (f.type === 'checkbox' || f.type === 'radio')) f.checked = k.checked;
    else f.value = k.value;
    f.dataset.edited = '1';
  }
  if (focused) {
    const f = el.querySelector<Field>(`[data-testid="${CSS.escape(focused)}"]`);
    f?.focus();
    if (caret && (f instanceof HTMLTextAreaElement || (f instanceof HTMLInputElement && ['text', 'search', ''].includes(f.type)))) {
      try {
        f.setSelectionRange(caret[0], caret[1]);
      } catch {
        // Not every input type has a caret.
      }
    }
  }
}

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}
