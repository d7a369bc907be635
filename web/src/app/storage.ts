// The browser's storage (localStorage): the graph text, the settings, the theme, the lessons done. Failures (quota,
// private mode) return false / null instead of throwing.
export const KEY_GRAPH = 'spillway.graph';
export const KEY_SETTINGS = 'spillway.settings';
export const KEY_THEME = 'spillway.theme';
export const KEY_LESSONS = 'spillway.lessons';

export const storage = {
  get(k: string): string | null {
    try {
      return localStorage.getItem(k);
    } catch {
      return null;
    }
  },
  set(k: string, v: string): boolean {
    try {
      localStorage.setItem(k, v);
      return true;
    } catch {
      return false;
    }
  },
};
