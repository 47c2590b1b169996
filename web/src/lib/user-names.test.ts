import { describe, expect, it } from 'vitest';

import { getDisplayName, getInitials } from '@/lib/user-names';

describe('display name (spec §2)', () => {
  it('prefers display_name', () => {
    expect(getDisplayName({ display_name: 'Sam the Handyman', first_name: 'Sam', last_name: 'Lee' }, 'sam@x.io')).toBe('Sam the Handyman');
  });
  it('falls back to first plus last name', () => {
    expect(getDisplayName({ display_name: '  ', first_name: 'Sam', last_name: 'Lee' }, 'sam@x.io')).toBe('Sam Lee');
  });
  it('falls back to the part of the email before the @', () => {
    expect(getDisplayName({ first_name: 'Sam', last_name: null }, 'sam.lee@example.com')).toBe('sam.lee');
    expect(getDisplayName(null, 'jo@example.com')).toBe('jo');
  });
  it("falls back to 'User'", () => {
    expect(getDisplayName(null, null)).toBe('User');
    expect(getDisplayName({}, '')).toBe('User');
  });
});

describe('initials (spec §2)', () => {
  it('uses the first letters of first and last name', () => {
    expect(getInitials({ first_name: 'sam', last_name: 'lee' }, 'x@y.z')).toBe('SL');
  });
  it('falls back to the first letter of the email', () => {
    expect(getInitials({ first_name: 'Sam' }, 'zoe@example.com')).toBe('Z');
  });
  it("falls back to 'U'", () => {
    expect(getInitials(null, undefined)).toBe('U');
  });
});
