// The classic hello world, as in the Express docs.
import express from 'switchyardjs'

const app = express()
const port = Number(process.env.PORT ?? 3000)

app.get('/', (req, res) => {
  res.send('Hello World!')
})

app.listen(port, () => {
  console.log(`Example app listening on port ${port}`)
})
