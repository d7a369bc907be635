// The embed view (a link with "&embed", lib/embed.ts): the chart, the step controls, the state at
// the cursor with its question, and the tables; no toolbar, settings or editor, and the lesson
// card only while a lesson is open (styles.css, html[data-embed]). A link at the foot opens the
// same case in the full page.
import { h } from '../lib/format';

export function enterEmbed(fullLink: string) {
  document.documentElement.dataset.embed = '';
  document.body.append(
    h(
      'a',
      { class: 'embed-full', href: fullLink, target: '_blank', rel: 'noopener', 'data-testid': 'embed-full' },
      'Open in the Spillway playground ↗',
    ),
  );
}
