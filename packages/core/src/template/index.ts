export { assertValidTemplate, DIR_ENV, PROMPT_ENV, renderTemplate, TemplateError } from './render-template.js';
