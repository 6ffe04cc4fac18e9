// The virtual module of build.mjs: every renderer of src/games/, default-exported as one array.
declare module "games:all" {
  const renderers: Array<{ id: string; render: (ctx: unknown) => Node; [key: string]: unknown }>;
  export default renderers;
}
