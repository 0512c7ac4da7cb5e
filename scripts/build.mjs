// Build: one CommonJS bundle per entry (so `require('switchyard')` is the fw
// function itself, like `require('express')`), a thin ESM wrapper over it (one
// copy of the code, no dual-package hazard) and declaration files for both.
import { build } from 'tsup'
import { createRequire } from 'node:module'
import { readFileSync, writeFileSync, rmSync } from 'node:fs'

const entries = { index: 'src/index.ts', 'body-parser': 'src/body/index.ts' }
rmSync('dist', { recursive: true, force: true })

await build({
  entry: entries,
  format: ['cjs'],
  target: 'node20',
  platform: 'node',
  dts: true,
  sourcemap: false,
  clean: false,
  silent: true,
  outExtension: () => ({ js: '.cjs', dts: '.d.cts' }),
  // the entry's default export becomes module.exports itself
  footer: { js: 'module.exports = module.exports.default;' }
})

const require = createRequire(import.meta.url)
for (const name of Object.keys(entries)) {
  const mod = require(`../dist/${name}.cjs`)
  const names = Object.keys(mod).filter((k) => k !== 'default' && /^[A-Za-z_$][\w$]*$/.test(k))
  const lines = [`import fw from './${name}.cjs'`, 'export default fw']
  for (const k of names) lines.push(`const _${k} = fw.${k}`, `export { _${k} as ${k} }`)
  writeFileSync(`dist/${name}.mjs`, lines.join('\n') + '\n')
  // ESM declarations: same types as the CommonJS ones
  const dts = readFileSync(`dist/${name}.d.cts`, 'utf8')
  writeFileSync(`dist/${name}.d.mts`, dts)
}
