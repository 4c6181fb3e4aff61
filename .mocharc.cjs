// Unit tests: the whole suite by default; `npx mocha path/to/a.test.ts` runs just the files named
// (a spec in a JSON config would be added to them, running everything).
const named = process.argv.slice(2).some((a) => /\.test\.ts$/.test(a));
module.exports = {
  spec: named ? [] : ['test/unit/**/*.test.ts'],
  'node-option': ['import=tsx'],
  timeout: 20000,
  reporter: 'dot',
};
