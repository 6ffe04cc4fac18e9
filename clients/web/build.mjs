// Build the browser client into dist/: one bundle (dist/app.js), one stylesheet (dist/app.css), index.html.
// Every module in src/games/ is a game renderer; the virtual module "games:all" imports them all, so a new
// game adds one file there and nothing else. `node build.mjs --watch` rebuilds on change.
import * as esbuild from "esbuild";
import { copyFile, mkdir, readdir } from "node:fs/promises";
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
  await copyFile(path.join(src, "favicon.svg"), path.join(dist, "favicon.svg"));
  await copyFile(path.join(src, "index.html"), path.join(dist, "index.html"));
  console.log("watching src/ (index.html is copied once)");
} else {
  await esbuild.build(options);
  await copyFile(path.join(src, "favicon.svg"), path.join(dist, "favicon.svg"));
  // written last: the Makefile treats dist/index.html as the build's stamp
  await copyFile(path.join(src, "index.html"), path.join(dist, "index.html"));
}
