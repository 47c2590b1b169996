export type User = {
  id: string;
  email: string;
  email_verified?: boolean;
  created_at?: string;
  /** Operators (listed in the server's ADMIN_EMAILS) see the dispute queue; from /api/me. */
  is_operator?: boolean;
};

export type Session = {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  /** Unix seconds or an RFC 3339 string; read it with sessionExpiryMs. */
  expires_at: number | string;
  user: User;
  /** The login and refresh answers carry the profile too. */
  profile?: Profile | null;
};

export type Skill = { name: string; level: number };

export type Profile = {
  id: string;
  first_name: string | null;
  last_name: string | null;
  /** Computed by the API: the chosen display name, else first and last name, else the email's local part. */
  display_name: string | null;
  /** The display name the user chose, if any (what settings edit). */
  custom_display_name?: string | null;
  initials?: string;
  company_name?: string | null;
  phone: string | null;
  /** `phone` was confirmed by a code sent to it. */
  phone_verified?: boolean;
  identity_verified?: boolean;
  identity_verified_at?: string | null;
  location: string | null;
  bio: string | null;
  avatar_url: string | null;
  account_type?: 'customer' | 'tasker' | string | null;
  is_tasker?: boolean;
  skills?: Skill[] | null;
  rating?: number | null;
  review_count?: number | null;
  tasks_completed?: number | null;
  member_since?: string | null;
};

export type AuthEvent =
  | 'INITIAL_SESSION'
  | 'SIGNED_IN'
  | 'SIGNED_OUT'
  | 'TOKEN_REFRESHED'
  | 'USER_UPDATED'
  | 'PASSWORD_RECOVERY'
  | 'MFA_CHALLENGE_VERIFIED';
