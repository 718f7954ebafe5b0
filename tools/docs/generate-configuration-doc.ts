import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONFIGURATION_DOC, configurationMarkdown, readConfigClasses } from './configuration-doc';

/** `npm run docs:config`: rewrites docs/configuration.md from the apps' config classes. */
const root = process.argv[2] ? resolve(process.argv[2]) : process.cwd();
writeFileSync(join(root, CONFIGURATION_DOC), configurationMarkdown(readConfigClasses(root), root));
console.log(`wrote ${CONFIGURATION_DOC}`);
