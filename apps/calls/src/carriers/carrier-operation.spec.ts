import { operationOf } from './carrier-operation';

describe('operationOf', () => {
  it.each([
    ['POST', '/Calls.json', 'POST /Calls.json'],
    ['POST', '/Calls/CA0123456789abcdef0123456789abcdef.json', 'POST /Calls/{id}.json'],
    ['GET', '/Calls.json?To=%2B14155550100&Status=in-progress', 'GET /Calls.json'],
    ['GET', '/Call/3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11/?status=live', 'GET /Call/{id}/'],
    ['DELETE', '/Request/3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11/', 'DELETE /Request/{id}/'],
    ['POST', '/Number/%2B919876543210/', 'POST /Number/{id}/'],
    ['POST', '/IncomingPhoneNumbers/PN0123456789abcdef.json', 'POST /IncomingPhoneNumbers/{id}.json'],
    ['POST', '/Call/', 'POST /Call/'],
    ['GET', '.json', 'GET account'],
    ['GET', '/', 'GET account'],
  ])('names %s %s as %s', (method, path, name) => expect(operationOf(method, path)).toBe(name));
});
