// Build the browser client into dist/: one bundle (dist/app.js), one stylesheet (dist/app.css), index.html, and
// the web push service worker (dist/sw.js, from src/sw.js).
// Every module in src/games/ is a game renderer; the virtual module "games:all" imports them all, so a new
// game adds one file there and nothing else. The service worker's virtual module "sw:words" holds only the words
// it shows (a notification's title and body in each language, the games' titles), not the catalogues.
// `node build.mjs --watch` rebuilds on change.
import * as esbuild from "esbuild";
import { copyFile, mkdir, readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, "src");
const dist = path.join(here, "dist");

const gamesPlugin = {
  name: "games-all",
  setup(build) {
    build.onResolve({ filter: /^games:all$/ }, () => ({ path: "games:all", namespace: "games" }));
    build.onLoad({ filter: /.*/, namespace: "games" }, async () => {
      const dir = path.join(src, "games");
      const files = (await readdir(dir)).filter((f) => f.endsWith(".js")).sort();
      const lines = files.map((f, i) => `import g${i} from ${JSON.stringify(path.join(dir, f))};`);
      lines.push(`export default [${files.map((_, i) => `g${i}`).join(", ")}];`);
      return { contents: lines.join("\n"), resolveDir: dir, watchFiles: files.map((f) => path.join(dir, f)), watchDirs: [dir] };
    });
  },
};

/** The words of a web push notification, per language, and each game's title (`id` and `title` of its renderer). */
const swWordsPlugin = {
  name: "sw-words",
  setup(build) {
    build.onResolve({ filter: /^sw:words$/ }, () => ({ path: "sw:words", namespace: "sw-words" }));
    build.onLoad({ filter: /.*/, namespace: "sw-words" }, async () => {
      const dir = path.join(src, "i18n");
      const files = (await readdir(dir)).filter((f) => f.endsWith(".json")).sort();
      const words = {};
      for (const f of files) {
        const cat = JSON.parse(await readFile(path.join(dir, f), "utf8"));
        words[f.replace(/\.json$/, "")] = { title: cat["signal.notifyTitle"], body: cat["signal.notifyBody"] };
      }
      const games = {};
      const gameDir = path.join(src, "games");
      for (const f of (await readdir(gameDir)).filter((g) => g.endsWith(".js"))) {
        const text = await readFile(path.join(gameDir, f), "utf8");
        const m = /^ {2}id: "([^"]+)",\n {2}title: "([^"]+)"/m.exec(text);
        if (m) games[m[1]] = m[2];
      }
      return {
        contents: `export const words = ${JSON.stringify(words)};\nexport const games = ${JSON.stringify(games)};`,
        loader: "js",
        watchFiles: [...files.map((f) => path.join(dir, f))],
      };
    });
  },
};

const swOptions = {
  entryPoints: [{ in: path.join(src, "sw.js"), out: "sw" }],
  outdir: dist,
  bundle: true,
  format: "iife",
  target: ["es2020"],
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [swWordsPlugin],
};

const options = {
  entryPoints: [
    { in: path.join(src, "main.js"), out: "app" },
    { in: path.join(src, "style.css"), out: "app" },
  ],
  outdir: dist,
  bundle: true,
  format: "iife",
  target: ["es2020"],
  minify: true,
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [gamesPlugin],
};

await mkdir(dist, { recursive: true });
if (process.argv.includes("--watch")) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
  const swCtx = await esbuild.context(swOptions);
  await swCtx.watch();
  await copyFile(path.join(src, "favicon.svg"), path.join(dist, "favicon.svg"));
  await copyFile(path.join(src, "index.html"), path.join(dist, "index.html"));
  console.log("watching src/ (index.html is copied once)");
} else {
  await esbuild.build(options);
  await esbuild.build(swOptions);
  await copyFile(path.join(src, "favicon.svg"), path.join(dist, "favicon.svg"));
  // written last: the Makefile treats dist/index.html as the build's stamp
  await copyFile(path.join(src, "index.html"), path.join(dist, "index.html"));
}
