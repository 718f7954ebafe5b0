import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { WEBHOOK_EVENT_TYPES } from '../events';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './webhook-endpoint-input.dto';
import { eventsAllowlistProblem, httpsUrlProblem, labelProblem } from './webhook-field.validators';

describe('webhook field rules', () => {
  it('labels: 1..31 lowercase letters, digits, hyphens, starting with a letter or digit; default reserved', () => {
    for (const ok of ['a', '9', 'crm-sync', 'a'.repeat(31), 'x-', 'defaults'])
      expect(labelProblem(ok)).toBeNull();
    for (const bad of ['', '-a', 'A', 'a_b', 'a b', 'a'.repeat(32), 'é', 1])
      expect(labelProblem(bad)).not.toBeNull();
    expect(labelProblem('default')).toMatch(/reserved/);
  });

  it('urls: HTTPS with a host and no credentials', () => {
    expect(httpsUrlProblem('https://example.com/hooks?x=1')).toBeNull();
    for (const bad of ['http://example.com', 'https://', 'example.com', 'https://u:p@example.com', 42])
      expect(httpsUrlProblem(bad)).not.toBeNull();
  });

  it('events: catalog names only; the refusal lists the valid set; session.failed is named as removed', () => {
    expect(eventsAllowlistProblem([])).toBeNull();
    expect(eventsAllowlistProblem([...WEBHOOK_EVENT_TYPES])).toBeNull();
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(9);
    const unknown = eventsAllowlistProblem(['call.started'])!;
    for (const type of WEBHOOK_EVENT_TYPES) expect(unknown).toContain(type);
    expect(eventsAllowlistProblem(['session.failed'])).toMatch(/session.failed no longer exists/);
    expect(eventsAllowlistProblem('call.status.updated')).not.toBeNull();
    expect(eventsAllowlistProblem([1])).not.toBeNull();
  });

  it('an update may not carry agent_id at all, null included', () => {
    const errorsOf = (body: object) =>
      validateSync(plainToInstance(UpdateWebhookEndpointDto, body)).map((e) => e.property);
    expect(errorsOf({ enabled: false })).toEqual([]);
    expect(errorsOf({ agent_id: null })).toEqual(['agent_id']);
    expect(errorsOf({ agent_id: '00000000-0000-4000-8000-000000000000' })).toEqual(['agent_id']);
  });

  it('creation needs a label and an HTTPS url', () => {
    const errorsOf = (body: object) =>
      validateSync(plainToInstance(CreateWebhookEndpointDto, body))
        .map((e) => e.property)
        .sort();
    expect(errorsOf({ label: 'a', url: 'https://example.com' })).toEqual([]);
    expect(errorsOf({})).toEqual(['label', 'url']);
  });
});
