import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { checkParentSurnames } from '../../src/domain/rules/index.js';

const lastName = { field: 'lastName', message: messages.parentSurname };
const kanaLastName = { field: 'kanaLastName', message: messages.parentKanaSurname };

describe('checkParentSurnames: the parent shares the child surname', () => {
  const child = { lastName: '山田', kanaLastName: 'ﾔﾏﾀﾞ' };
  it.each([
    [{ lastName: '山田', kanaLastName: 'ﾔﾏﾀﾞ' }, []],
    [{ lastName: ' 山田　', kanaLastName: 'やまだ' }, []],
    [{ lastName: '山田', kanaLastName: 'ヤマダ ' }, []],
    [{ lastName: '田中', kanaLastName: 'ﾔﾏﾀﾞ' }, [lastName]],
    [{ lastName: '山田', kanaLastName: 'ﾀﾅｶ' }, [kanaLastName]],
    [{ lastName: '田中', kanaLastName: 'ﾀﾅｶ' }, [lastName, kanaLastName]],
    [{ lastName: '', kanaLastName: '' }, []], // empty: the schema's 'required'
  ])('%o → %o', (parent, expected) => {
    expect(checkParentSurnames(child, parent)).toEqual(expected);
  });
});
