import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString, MinLength } from 'class-validator';
import { bootstrapService, ServiceDefinition } from './bootstrap';
import { BaseServiceConfig } from './config/base.config';
import { withServiceConfigs } from './config/config.module';
import { IntSetting } from './config/settings';
import { ConfigError, validateConfigs } from './config/validate-config';

class MainConfig extends BaseServiceConfig {
  @IntSetting({ min: 0, max: 65535 })
  PORT: number = 3999;
}

/** An extra config class, as an app's storage or telephony settings. */
class ExtraConfig {
  @IntSetting({ min: 1, max: 10 })
  BOOTSTRAP_SPEC_LIMIT: number = 5;

  @IsString()
  @MinLength(4, { message: 'BOOTSTRAP_SPEC_NAME must be at least 4 characters' })
  BOOTSTRAP_SPEC_NAME: string = 'name';
}

/** Shares a setting with ExtraConfig, so that a bad value of it is reported once. */
class OtherConfig {
  @IntSetting({ min: 1, max: 10 })
  BOOTSTRAP_SPEC_LIMIT: number = 5;
}

describe('validateConfigs', () => {
  it('validates every class and hands back each instance by its class', () => {
    const configs = validateConfigs([MainConfig, ExtraConfig], { BOOTSTRAP_SPEC_LIMIT: '7' });
    expect(configs.get(MainConfig)).toBeInstanceOf(MainConfig);
    expect(configs.get(ExtraConfig).BOOTSTRAP_SPEC_LIMIT).toBe(7);
    expect(configs.classes()).toEqual([MainConfig, ExtraConfig]);
    expect(() => configs.get(OtherConfig)).toThrow(/OtherConfig is not one of this service's config classes/);
  });

  it('lists the problems of every class in one error, each once', () => {
    const env = { PORT: 'eighty', BOOTSTRAP_SPEC_LIMIT: '11', BOOTSTRAP_SPEC_NAME: 'x' };
    let error: unknown;
    try {
      validateConfigs([MainConfig, ExtraConfig, OtherConfig], env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.filter((p) => p.startsWith('PORT: ')).length).toBeGreaterThan(0);
    expect(problems.filter((p) => p.startsWith('BOOTSTRAP_SPEC_LIMIT: '))).toEqual([
      'BOOTSTRAP_SPEC_LIMIT: BOOTSTRAP_SPEC_LIMIT must not be greater than 10 (got "11")',
    ]);
    expect(problems).toContain(
      'BOOTSTRAP_SPEC_NAME: BOOTSTRAP_SPEC_NAME must be at least 4 characters (got "x")',
    );
  });
});

describe('withServiceConfigs', () => {
  it('provides every validated instance for injection under its class', async () => {
    @Injectable()
    class Reader {
      constructor(
        readonly main: MainConfig,
        readonly extra: ExtraConfig,
      ) {}
    }
    @Module({ providers: [Reader] })
    class FeatureModule {}

    const configs = validateConfigs([MainConfig, ExtraConfig], {});
    const app = await NestFactory.createApplicationContext(
      withServiceConfigs({ module: class AppModule {}, imports: [FeatureModule] }, configs),
      { logger: false },
    );
    try {
      const reader = app.get(Reader);
      expect(reader.main).toBe(configs.get(MainConfig));
      expect(reader.extra).toBe(configs.get(ExtraConfig));
    } finally {
      await app.close();
    }
  });
});

describe('bootstrapService: every config class is validated at boot', () => {
  class Exit extends Error {}
  const saved = { ...process.env };
  const argv = process.argv;
  let exits: number[];
  let stderr: string;
  let stdout: string;
  let module: jest.Mock;

  const definition = (): ServiceDefinition<MainConfig> => ({
    name: 'spec',
    configClass: MainConfig,
    settings: [ExtraConfig],
    module,
    dataSource: () => ({ type: 'postgres' }),
    port: (config) => config.PORT,
  });

  beforeEach(() => {
    exits = [];
    stderr = '';
    stdout = '';
    module = jest.fn();
    jest.spyOn(process, 'exit').mockImplementation((code) => {
      exits.push(Number(code));
      throw new Exit();
    });
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
  });

  afterEach(() => {
    jest.restoreAllMocks();
    process.env = { ...saved };
    process.argv = argv;
  });

  // process.exit is mocked to throw, which bootstrapService reports as a failed start after the lines.
  it('exits with one line per bad setting of an extra config class, before any module is built', async () => {
    process.env.BOOTSTRAP_SPEC_LIMIT = '11';
    process.env.BOOTSTRAP_SPEC_NAME = 'x';
    await bootstrapService(definition()).catch((err) => {
      if (!(err instanceof Exit)) throw err;
    });
    expect(exits[0]).toBe(1);
    expect(stderr.split('spec: failed to start')[0]).toBe(
      'spec: refusing to start, 2 bad setting(s):\n' +
        '  - BOOTSTRAP_SPEC_LIMIT: BOOTSTRAP_SPEC_LIMIT must not be greater than 10 (got "11")\n' +
        '  - BOOTSTRAP_SPEC_NAME: BOOTSTRAP_SPEC_NAME must be at least 4 characters (got "x")\n',
    );
    expect(module).not.toHaveBeenCalled();
  });

  it('--check-config validates the extra config classes too', async () => {
    process.argv = [...argv, '--check-config'];
    await bootstrapService(definition()).catch((err) => {
      if (!(err instanceof Exit)) throw err;
    });
    expect(exits[0]).toBe(0);
    expect(stdout).toBe('spec: configuration is valid\n');

    exits = [];
    process.env.BOOTSTRAP_SPEC_LIMIT = '0';
    await bootstrapService(definition()).catch((err) => {
      if (!(err instanceof Exit)) throw err;
    });
    expect(exits[0]).toBe(1);
    expect(stderr).toContain(
      '  - BOOTSTRAP_SPEC_LIMIT: BOOTSTRAP_SPEC_LIMIT must not be less than 1 (got "0")\n',
    );
    expect(module).not.toHaveBeenCalled();
  });
});
