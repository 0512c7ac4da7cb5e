// The body-parser drop-in entry, with every parser and its options.
import bodyParser, { type OptionsJson } from 'switchyardjs/body-parser'
import express from 'switchyardjs'
import type { IncomingMessage } from 'node:http'

const jsonOptions: OptionsJson = {
  limit: '1mb',
  strict: true,
  type: ['application/json', 'application/*+json'],
  verify(req: IncomingMessage, _res, buf: Buffer) {
    if (req.headers['x-signature'] === undefined && buf.length > 0) throw new Error('unsigned')
  }
}

const app = express()
app.use(bodyParser.json(jsonOptions))
app.use(bodyParser.urlencoded({ extended: true, parameterLimit: 100, depth: 5 }))
app.use('/webhooks', bodyParser.raw({ type: 'application/octet-stream', limit: 5 * 1024 * 1024 }))
app.use('/notes', bodyParser.text({ defaultCharset: 'utf-8', type: (req) => req.headers['content-type']?.startsWith('text/') }))

app.post('/webhooks/:source', (req, res) => {
  const payload = req.body as Buffer
  res.json({ source: req.params.source, bytes: payload.length })
})
