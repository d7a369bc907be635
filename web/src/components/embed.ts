// The embed view (a link with "&embed", lib/embed.ts): the chart, the step controls, the state at
// the cursor with its question, and the tables; no toolbar, settings or editor (styles.css,
// html[data-embed]). The lesson card stays only while a lesson is open, showing that lesson; a
// link at the foot opens the same case in the full page.
import type { Store } from '../store';
import { h } from '../lib/format';

export function enterEmbed(store: Store, lessonsCard: HTMLElement, fullLink: string) {
  document.documentElement.dataset.embed = '';
  const sync = () => {
    lessonsCard.hidden = !store.get().lesson;
  };
  store.subscribe((s, p) => {
    if (s.lesson !== p.lesson) sync();
  });
  sync();
  document.body.append(
    h(
      'a',
      { class: 'embed-full', href: fullLink, target: '_blank', rel: 'noopener', 'data-testid': 'embed-full' },
      'Open in the Spillway playground ↗',
    ),
  );
}
