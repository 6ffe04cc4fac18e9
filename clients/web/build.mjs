// Build the browser client into dist/: one bundle and one stylesheet with content-hashed names
// (dist/assets/app-HASH.js, dist/assets/app-HASH.css, with their source maps), index.html linking them, the favicon
// and the web push service worker (dist/sw.js, from src/sw.js). index.html, sw.js and favicon.svg keep their names
// (a page's address, the worker's scope and the icon the code names); everything under assets/ is a new file when
// its content changes, so the server lets browsers keep it for a year (server/net/static.py).
// Every text file gets a gzip (FILE.gz) and a brotli (FILE.br) copy, compressed once here at the highest levels,
// which the server sends to a browser that accepts them; a copy no smaller than its file is not written.
// Files of an earlier build that this one did not write are removed.
// Every module in src/games/ is a game renderer; the virtual module "games:all" imports them all, so a new
// game adds one file there and nothing else. The service worker's virtual module "sw:words" holds only the words
// it shows (a notification's title and body in each language, the games' titles), not the catalogues.
// `node build.mjs --watch` rebuilds on change (index.html is rewritten after each rebuild; no compressed copies).
import * as esbuild from "esbuild";
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

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
  entryNames: "assets/[name]-[hash]",
  assetNames: "assets/[name]-[hash]",
  metafile: true,
  bundle: true,
  format: "iife",
  target: ["es2020"],
  minify: true,
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
  plugins: [gamesPlugin],
};

/** Files that keep their names: copied from src/ as they are. */
const COPIED = ["favicon.svg"];
/** Files worth a compressed copy (text). */
const COMPRESSIBLE = /\.(html|js|css|svg|map|json|txt|webmanifest)$/;

/** A path of dist/ as the page names it: relative, with forward slashes. */
const rel = (file) => path.relative(dist, path.resolve(file)).split(path.sep).join("/");

/** The entry points' outputs by the name src/index.html links them with ("app.js" for "assets/app-HASH.js"). */
function linkedNames(metafile) {
  const names = {};
  for (const [out, info] of Object.entries(metafile.outputs)) {
    if (!info.entryPoint) continue; // (source maps)
    names[path.basename(out).replace(/-[A-Z0-9]{8}(\.\w+)$/, "$1")] = rel(out);
  }
  return names;
}

/** src/index.html with its links to the bundle and the stylesheet pointing at their hashed files. */
async function page(metafile) {
  const names = linkedNames(metafile);
  const html = (await readFile(path.join(src, "index.html"), "utf8")).replace(
    /\b(href|src)="([^"]+)"/g,
    (all, attr, ref) => (ref in names ? `${attr}="${names[ref]}"` : all),
  );
  for (const [name, hashed] of Object.entries(names)) {
    if (!html.includes(`"${hashed}"`)) throw new Error(`src/index.html does not link ${name}`);
  }
  return html;
}

/** FILE.gz and FILE.br beside `file` (each only when smaller than the file); returns the paths written.
 * A source map (read by the developer tools only) gets no brotli copy: brotli's best level takes seconds on it. */
async function compress(file, data) {
  const { constants } = zlib;
  const copies = [[".gz", zlib.gzipSync(data, { level: 9 })]];
  if (!file.endsWith(".map")) {
    copies.push([
      ".br",
      zlib.brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
    ]);
  }
  const written = [];
  for (const [ext, packed] of copies) {
    if (packed.length < data.length) {
      await writeFile(file + ext, packed);
      written.push(file + ext);
    }
  }
  return written;
}

/** Remove every file of dist/ that is not in `keep` (absolute paths): an earlier build's. */
async function prune(keep) {
  const wanted = new Set([...keep].map((f) => path.resolve(f)));
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    if (entry.isFile() && !wanted.has(file)) await rm(file);
  }
}

await mkdir(dist, { recursive: true });
const swFile = path.join(dist, "sw.js");
const pageFile = path.join(dist, "index.html");
const copied = COPIED.map((f) => path.join(dist, f));
if (process.argv.includes("--watch")) {
  const pagePlugin = {
    name: "page",
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length || !result.metafile) return;
        await writeFile(pageFile, await page(result.metafile));
        const outputs = Object.keys(result.metafile.outputs);
        await prune([...outputs, swFile, pageFile, ...copied]);
      });
    },
  };
  for (const f of COPIED) await copyFile(path.join(src, f), path.join(dist, f));
  const swCtx = await esbuild.context(swOptions);
  await swCtx.rebuild();
  await swCtx.watch();
  const ctx = await esbuild.context({ ...options, plugins: [...options.plugins, pagePlugin] });
  await ctx.watch();
  console.log("watching src/ (index.html is rewritten after each rebuild of the bundle)");
} else {
  const result = await esbuild.build(options);
  await esbuild.build(swOptions);
  for (const f of COPIED) await copyFile(path.join(src, f), path.join(dist, f));
  const html = await page(result.metafile);
  const files = [...Object.keys(result.metafile.outputs).map((f) => path.resolve(f)), swFile, ...copied];
  const keep = [...files, pageFile];
  for (const file of files.filter((f) => COMPRESSIBLE.test(f))) {
    keep.push(...(await compress(file, await readFile(file))));
  }
  keep.push(...(await compress(pageFile, Buffer.from(html))));
  // written last: the Makefile treats dist/index.html as the build's stamp (only an earlier build's files go after)
  await writeFile(pageFile, html);
  await prune(keep);
}
