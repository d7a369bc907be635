// Redrawing part of the page without losing a keyboard user's place: the element that had the
// focus is found again in the new content (by its data-testid and the data attributes that tell
// its kind apart) and gets the focus back.
const KEYS = ['value', 'buf', 'lesson'] as const;

function selectorOf(el: HTMLElement): string | null {
  const t = el.dataset.testid;
  if (!t) return null;
  return `[data-testid="${t}"]${KEYS.filter((k) => el.dataset[k] !== undefined)
    .map((k) => `[data-${k}="${el.dataset[k]}"]`)
    .join('')}`;
}

/** Runs `draw`, which replaces what `root` holds, and puts the focus back where it was; where that
 * element is gone, on `fallback` (e.g. the answer that replaced the question's buttons). */
export function redrawKeepingFocus(root: HTMLElement, draw: () => void, fallback?: string) {
  const active = document.activeElement as HTMLElement | null;
  const had = !!active && active !== root && root.contains(active);
  const selector = had ? selectorOf(active!) : null;
  draw();
  if (!had || root.contains(document.activeElement)) return;
  const again = (selector && root.querySelector(selector)) || (fallback && root.querySelector(fallback));
  (again as HTMLElement | null)?.focus();
}
