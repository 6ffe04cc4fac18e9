// The virtual module of build.mjs for the service worker: a notification's words per language, the games' titles.
declare module "sw:words" {
  export const words: Record<string, { title: string; body: string }>;
  export const games: Record<string, string>;
}
