import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { forgetStepAnswer } from '../../src/client/api/application';

afterEach(() => {
  cleanup();
  // What a test's last page handed on is not the next test's.
  forgetStepAnswer();
});
