// Runs after `npm install` / `npm ci` (the root package's postinstall), with node_modules/.bin first on
// PATH, so `node` here is the project's own Node from the `node` devDependency.
//
// npm checks each package's `engines` against the Node that runs npm itself. On a machine whose Node is
// 20, it warns (EBADENGINE) about every package that needs Node 22, although the project runs them all
// on its own Node 22 through npm scripts; npm has no setting to check against another Node. This says
// so in one line after those warnings, and fails the install when the project's Node is missing, which
// would break every script.
const WANTED_MAJOR = 22;
const own = process.versions.node;
// npm passes its user agent to scripts: "npm/11.6.2 node/v20.20.2 linux x64 ...".
const npmNode = /\bnode\/v(\d+)\.(\d+)\.(\d+)/.exec(process.env.npm_config_user_agent ?? "");

if (Number(own.split(".")[0]) < WANTED_MAJOR) {
  console.error(
    `The project's Node ${WANTED_MAJOR} is not in node_modules/.bin/node (this script ran on Node ${own}), ` +
      "so its npm scripts would run on the wrong Node. Run npm install again; if it persists, look for an error " +
      "of the `node` package's install above.",
  );
  process.exit(1);
}
if (npmNode && Number(npmNode[1]) < WANTED_MAJOR) {
  console.log(
    `▸ npm ran on Node ${npmNode.slice(1).join(".")}; its EBADENGINE warnings name packages that need Node ${WANTED_MAJOR}. ` +
      `They run on the project's Node ${own} (node_modules/.bin/node) through npm scripts: nothing to do.`,
  );
}
