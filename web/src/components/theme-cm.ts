// Editor colours come from the page's CSS variables; only the syntax colours differ per theme.
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

export const oneDarkHighlight = syntaxHighlighting(
  HighlightStyle.define([
    { tag: t.propertyName, color: '#93c5fd' },
    { tag: t.string, color: '#86efac' },
    { tag: t.number, color: '#fbbf24' },
    { tag: [t.bool, t.null], color: '#f0abfc' },
    { tag: t.punctuation, color: '#9ca3af' },
  ]),
);
