// The embed flag of a link: "&embed" after the rest of the fragment ("#case=…&embed") asks for
// the embed view (an iframe on a course page). The flag is read apart from the link's own
// format: the rest of the fragment goes to the link reader unchanged.
export const EMBED_FLAG = 'embed';

/** A fragment (without '#') split into the link it holds and whether it asks for the embed view. */
export function splitEmbed(fragment: string): { fragment: string; embed: boolean } {
  const parts = fragment.split('&');
  const rest = parts.filter((p) => p !== EMBED_FLAG);
  return { fragment: rest.join('&'), embed: rest.length < parts.length };
}
