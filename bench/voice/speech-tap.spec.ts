import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { mulawEncode } from '@vap/media';
import { callKey, SpeechTap, voiced } from './speech-tap';

const FAKE_KEY = 'the-fake-key';

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function post(url: string, headers: Record<string, string>, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve(Buffer.concat(parts).toString('latin1')));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('speech tap', () => {
  const tap = SpeechTap.install();
  beforeEach(() => tap.reset());

  it('tells sound from silence in each inbound audio format', () => {
    const loud = new Int16Array(160).fill(3000);
    const quiet = new Int16Array(160);
    expect(voiced(Buffer.from(mulawEncode(loud)), true, 'mulaw')).toBe(true);
    expect(voiced(Buffer.from(mulawEncode(quiet)), true, 'mulaw')).toBe(false);
    expect(voiced(Buffer.from(loud.buffer), true, 'pcm16')).toBe(true);
    expect(voiced(Buffer.from(quiet.buffer), true, 'pcm16')).toBe(false);
    const json = (pcm: Int16Array) =>
      Buffer.from(JSON.stringify({ audio: { data: Buffer.from(pcm.buffer).toString('base64') } }));
    expect(voiced(json(loud), false, 'sarvam-json')).toBe(true);
    expect(voiced(json(quiet), false, 'sarvam-json')).toBe(false);
    expect(voiced(Buffer.from('{"type":"flush"}'), false, 'sarvam-json')).toBe(false);
  });

  it("reads the call from its key, gives the fake its own key, and stamps an answer's first audio", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      req.resume();
      req.on('end', () => {
        if (req.url === '/json') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{}');
          return;
        }
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        res.write(Buffer.alloc(32));
        res.end(Buffer.alloc(32));
      });
    });
    const url = await listen(server);
    try {
      tap.watch(url, { fakeKey: FAKE_KEY, inbound: 'upload' });
      await post(`${url}/speak`, { authorization: `Token ${callKey(7)}` }, 'text');
      await post(`${url}/json`, { authorization: `Token ${callKey(8)}` }, 'text');
      await post(`${url}/speak`, { authorization: 'Token deployment-key' }, 'text');
      expect(seen).toEqual([`Token ${FAKE_KEY}`, `Token ${FAKE_KEY}`, 'Token deployment-key']);
      // One stamp per answer with audio (not one per write), none for a JSON answer or an untagged request.
      expect(tap.synthesisStarts.get(7)).toHaveLength(1);
      expect(tap.synthesisStarts.has(8)).toBe(false);
      expect(tap.untagged).toBe(1);
      // An upload is received (as a whole) when its body has been.
      expect(tap.voicedReceipts.get(7)).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  it("stamps a socket's voiced audio received and each synthesis's first audio message sent", async () => {
    const wss = new WebSocketServer({ noServer: true });
    const server = createServer();
    server.on('upgrade', (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) =>
        ws.on('message', (data: Buffer, isBinary: boolean) => {
          if (isBinary) return;
          // A text to speak: two audio chunks, then the end.
          ws.send(JSON.stringify({ audio: 'AAAA' }));
          ws.send(JSON.stringify({ audio: 'AAAA' }));
          ws.send(JSON.stringify({ audio: null, isFinal: true }));
        }),
      ),
    );
    const url = await listen(server);
    tap.watch(url, { fakeKey: FAKE_KEY, inbound: 'pcm16' });
    const client = new WebSocket(url.replace('http', 'ws'), { headers: { 'xi-api-key': callKey(3) } });
    try {
      await new Promise((resolve) => client.once('open', resolve));
      let received = 0;
      const answers = new Promise<void>((resolve) =>
        client.on('message', () => {
          if (++received === 6) resolve();
        }),
      );
      client.send(Buffer.from(new Int16Array(160).fill(2000).buffer));
      client.send(Buffer.from(new Int16Array(160).buffer));
      client.send(JSON.stringify({ text: 'one' }));
      await new Promise((r) => setTimeout(r, 50));
      client.send(JSON.stringify({ text: 'two' }));
      await answers;
      expect(tap.voicedReceipts.get(3)).toHaveLength(1);
      const starts = tap.synthesisStarts.get(3)!;
      expect(starts).toHaveLength(2);
      expect(starts[1]).toBeGreaterThan(starts[0]);
    } finally {
      client.terminate();
      server.close();
    }
  });
});
