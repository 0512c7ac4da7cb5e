// Content negotiation with req.accepts* and res.format.
import express, { type Request, type Response } from 'switchyardjs'

const app = express()

app.get('/greeting', (req: Request, res: Response) => {
  const lang = req.acceptsLanguages('fr', 'en') || 'en'
  const text = lang === 'fr' ? 'Bonjour' : 'Hello'
  res.vary('Accept-Language')
  res.format({
    'text/plain': () => res.send(text),
    'text/html': () => res.send(`<p>${text}</p>`),
    'application/json': () => res.json({ text }),
    default: () => res.status(406).send('Not Acceptable')
  })
})

app.post('/upload', (req, res) => {
  if (!req.is(['application/json', 'text/*'])) return res.sendStatus(415)
  const type = req.accepts(['json', 'text'])
  if (type === false) return res.sendStatus(406)
  res.type(type).send(type === 'json' ? { ok: true } : 'ok')
})

app.get('/video', (req, res) => {
  const size = 1_000_000
  const ranges = req.range(size, { combine: true })
  if (ranges === -1) return res.status(416).end()
  if (ranges === -2 || ranges === undefined) return res.send('whole')
  res.status(206).set('Content-Range', `bytes ${ranges[0].start}-${ranges[0].end}/${size}`).end()
})
