export * from './project.dto';
