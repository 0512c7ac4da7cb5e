// The smallest Switchyard app: `npm start` runs it (PORT, default 3000).
const fw = require('../..') // in your own project: require('switchyardjs')

const app = fw()

app.get('/', (req, res) => {
  res.send('Hello from Switchyard!')
})

app.get('/hello/:name', (req, res) => {
  res.json({ hello: req.params.name })
})

const port = Number(process.env.PORT) || 3000
app.listen(port, () => {
  console.log(`Switchyard example listening on http://localhost:${port}/`)
})
