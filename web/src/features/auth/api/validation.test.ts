import { describe, expect, it } from 'vitest';

import { loginInputSchema } from '@/features/auth/api/login';
import { recoverInputSchema } from '@/features/auth/api/recover-password';
import { resetInputSchema } from '@/features/auth/api/reset-password';
import { signupInputSchema, type SignupInput } from '@/features/auth/api/signup';
import { validate } from '@/lib/validation';

const validSignup: SignupInput = {
  account_type: 'customer',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  password: 'secret1',
  confirm_password: 'secret1',
  skills: [],
  terms: true,
};

describe('login validation', () => {
  it('requires email and password', () => {
    expect(validate(loginInputSchema, { email: '', password: '' })).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
  });
  it('rejects an address that does not look like one', () => {
    expect(validate(loginInputSchema, { email: 'ada@', password: 'x' })).toEqual({ email: 'Email is invalid' });
  });
  it('accepts a valid pair', () => {
    expect(validate(loginInputSchema, { email: 'ada@example.com', password: 'x' })).toEqual({});
  });
});

describe('sign-up validation', () => {
  it('accepts a complete customer', () => {
    expect(validate(signupInputSchema, validSignup)).toEqual({});
  });
  it('reports every rule with the spec texts', () => {
    expect(
      validate(signupInputSchema, {
        ...validSignup,
        first_name: ' ',
        last_name: '',
        email: 'nope',
        password: '12345',
        confirm_password: '54321',
        terms: false,
      }),
    ).toEqual({
      first_name: 'First name is required',
      last_name: 'Last name is required',
      email: 'Email is invalid',
      password: 'Password must be at least 6 characters',
      confirm_password: 'Passwords do not match',
      terms: 'You must agree to the terms and conditions',
    });
  });
  it('requires an email and a password', () => {
    const errors = validate(signupInputSchema, { ...validSignup, email: '', password: '', confirm_password: '' });
    expect(errors.email).toBe('Email is required');
    expect(errors.password).toBe('Password is required');
  });
  it('requires a tasker to add at least one skill', () => {
    expect(validate(signupInputSchema, { ...validSignup, account_type: 'tasker' })).toEqual({
      skills: 'Please add at least one skill',
    });
    expect(validate(signupInputSchema, { ...validSignup, account_type: 'tasker', skills: [{ name: 'Tiling', level: 50 }] })).toEqual({});
  });
});

describe('forgot and reset password validation', () => {
  it('needs a valid email to send a recovery link', () => {
    expect(validate(recoverInputSchema, { email: 'ada' })).toEqual({ email: 'Please enter a valid email address' });
    expect(validate(recoverInputSchema, { email: 'ada@example.com' })).toEqual({});
  });
  it('uses the sign-up messages for the new password', () => {
    expect(validate(resetInputSchema, { password: 'abc', confirm_password: 'abc' })).toEqual({
      password: 'Password must be at least 6 characters',
    });
    expect(validate(resetInputSchema, { password: 'abcdef', confirm_password: 'abcdeg' })).toEqual({
      confirm_password: 'Passwords do not match',
    });
  });
});
