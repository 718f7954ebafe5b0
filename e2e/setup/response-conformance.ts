/**
 * Runs in every e2e spec file (Jest setupFilesAfterEnv): each answer a gateway gives the spec is checked
 * against the served OpenAPI document (/api/v2/openapi.json), and a test fails listing every answer of its
 * own that the document does not describe: an unknown route, an undocumented status or content type, or a
 * body its schema rejects.
 */
import { ResponseRecorder } from '../support/response-recorder';
import { e2eEnv } from '../support/env';

const recorder = new ResponseRecorder(() => `${e2eEnv().gatewayUrl}/api/v2/openapi.json`);
recorder.install();

async function failOnProblems(): Promise<void> {
  const problems = await recorder.takeProblems();
  if (problems.length) {
    throw new Error(
      `${problems.length} answer(s) disagree with the OpenAPI document:\n  ${problems.join('\n  ')}`,
    );
  }
}

beforeAll(async () => {
  // Loaded while the run's gateway is surely up (some specs restart gateways later).
  await recorder.load();
});

afterEach(failOnProblems);

afterAll(async () => {
  try {
    await failOnProblems();
  } finally {
    recorder.uninstall();
  }
});
