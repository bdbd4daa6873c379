// User-facing texts of the spec's catalogues, defined once for worker and web.

export const AUTH_TEXT = {
  planHeading: "Discover our plans",
  planText: "Enter your email to view plans",
  planButton: "Continue with email",
  planLoginLink: "Already have an account? Log in",
  loginHeading: "Log in",
  goBack: "Go back",
  signInTab: "Sign In",
  registerTab: "Register",
  createAccount: "Create account",
  confirmTitle: "Confirm Your Email",
  resendEmail: "Resend Email",
  iveConfirmed: "I've Confirmed",
  confirmedTitle: "Email Confirmed!",
  continueToSignIn: "Continue to Sign In",
  // Field labels, stable so browser tests can find the inputs.
  emailLabel: "Email",
  passwordLabel: "Password",
  usernameLabel: "Username",
  companyLabel: "Company name or full name",
  confirmPasswordLabel: "Confirm password",
  signInButton: "Sign In",
  signingIn: "Signing in",
  creatingAccount: "Creating account",
  checkingEmail: "Checking your email",
  noAccount: "Don't have an account?",
  welcome: "Welcome",
  welcomeText: "Sign in to your account or create a new one",
  loginText: "Welcome back. Enter your email and password.",
  // The four things a user can do (spec 1 §1), shown beside the sign-in screen.
  capabilities: [
    "Manage your AI voice assistant",
    "Customize prompts and voices",
    "View call logs and analytics",
    "Test calls with the virtual agent",
  ],
  confirmSentTo: "We sent a confirmation link to",
  confirmInstructions: "Open the link in that email to activate your account, then sign in.",
  confirmTipsTitle: "Didn't get the email?",
  confirmTips: ["Check your spam or junk folder", "Make sure the address above is correct", "Wait a few minutes and try again"],
  openLocalMailbox: "Open the local mailbox",
  confirmedText: "Your email address has been confirmed. You can now sign in to your account.",
  linkExpired: "Your confirmation link has expired. Register again or ask for a new email.",
  linkInvalid: "This confirmation link is invalid or has already been used.",
} as const;

export const VALIDATION = {
  invalidEmail: "Invalid email address",
  passwordMin: "Password must be at least 6 characters",
  usernameMin: "Username must be at least 3 characters",
  companyRequired: "Please enter your company name or your full name",
  passwordsMismatch: "Passwords do not match",
  agentNameMin: "Agent name must be at least 2 characters",
  businessDescriptionMin: "Business description must be at least 20 characters",
  servicesMin: "Services description must be at least 20 characters",
  agentInstructionsMin: "Agent instructions must be at least 20 characters",
} as const;

export const AUTH_TOAST = {
  errorTitle: "Error",
  loginFailed: "Failed to log in",
  registerFailed: "Failed to register",
  logoutFailed: "Failed to log out",
  resendFailed: "Failed to resend email",
  loggedIn: "You are now logged in.",
  accountCreated: "Account created successfully.",
  loggedOut: "You have been logged out.",
  emailSentTitle: "Email sent",
  emailSent: "Confirmation email has been resent to your inbox.",
  emailConfirmedTitle: "Email confirmed",
  emailConfirmed: "Your email has been confirmed successfully!",
  outsideProvider: "useAuth must be used within an AuthProvider",
} as const;

export const ACCESS_TEXT = {
  accessDenied: "Access Denied",
  adminDenied: "You don't have permission to access the admin dashboard",
  analyticsDenied: "You don't have permission to access the Appointment Analysis section.",
} as const;

export const DASHBOARD_TEXT = {
  refreshAll: "Refresh All Sections",
  callLogs: "Call Logs",
  dailyReport: "Daily Report",
  appointments: "Shopwindow Appointments",
  leads: "Leads",
  aircall: "Aircall Counts",
  countsError: "Error fetching counts",
  aircallError: "Error fetching Aircall counts",
  appointmentsError: "Error fetching appointment counts",
  leadsError: "Error fetching leads",
  exportError: "Error generating report",
  dailyReportError: "Error generating daily report",
  dailyReportFailed: "Failed to generate daily report",
  dailyReportDone: "Daily report generated and downloaded successfully",
  generateDailyReport: "Generate Daily Report",
  virtualInteractions: "Virtual Interactions",
  leadsAndAircall: "Leads & Aircall",
} as const;

export const AGENT_TEXT = {
  basicInfo: "Basic Info",
  instructions: "Instructions",
  incomplete: "Agent configuration incomplete",
  addNew: "Add New Agent",
  emptyTitle: "Create Your AI Agent",
  emptyButton: "Create My First Agent",
  nameRequiredTitle: "Name required",
  nameRequired: "Please enter a name for your agent.",
  duplicateTitle: "Duplicate name",
  duplicate: "You already have an agent with this name.",
  createFailed: "Failed to create agent. Please try again.",
  createFailedTitle: "Failed to create agent",
  updateFailed: "Failed to update agent settings",
  activateFailed: "Failed to activate agent in VAPI.AI. Please try again.",
  deactivateFailed: "Failed to deactivate agent from VAPI.AI. Please try again.",
  deleteFailed: "Failed to delete agent. Please try again.",
  triggerFailed: "Failed to trigger test call",
  created: "Agent created successfully!",
  createdTitle: "Agent created",
  saved: "Changes saved",
  defaultCreated: "Default agent created",
  testCallStarted: "Test call initiated",
  deleted: "Agent successfully deleted",
  activated: "Agent successfully activated in VAPI.AI",
  deleteUndone: "This action cannot be undone",
  mandatoryNotice: "All fields are mandatory.",
} as const;

export const PHONE_TEXT = {
  myNumbers: "My numbers",
  buy: "Buy Phone Number",
  search: "Search numbers",
  assignAgent: "Assign Agent",
  unassign: "Unassign",
  loadFailed: "Failed to load phone numbers",
  assignToAgentFailed: "Failed to assign number to agent",
  assignFailed: "Failed to assign number",
  unassignFailed: "Failed to unassign number",
  agentsLoadFailed: "Failed to load agents",
  limitReached: "Phone Number Limit Reached",
  buyFailed: "Failed to buy number",
  networkError: "Network error",
  vapiCopyFailed: "Failed to create for AI calls (check configuration)",
  notAssigned: "Not Assigned",
} as const;

export const CALL_LOG_TEXT = {
  refresh: "Refresh Logs",
  empty: "No call logs found. Try triggering a test call.",
  viewDetails: "View Details",
  summary: "Summary",
  transcript: "Transcript",
  transcriptFailed: "Failed to load transcript",
  noTranscript: "No transcript available for this call",
  transcriptUnknown: "Transcript format not recognized",
} as const;

export const SETTINGS_TEXT = {
  title: "Settings",
  userSection: "User",
  userSectionText: "How you appear in the dashboard and where we reach you.",
  nickNameLabel: "Nick name",
  emailLabel: "Email",
  companySection: "Company",
  companySectionText: "The business this account belongs to.",
  companyLabel: "Company name",
  subscriptionSection: "Subscription",
  save: "Save changes",
  saving: "Saving",
  savedTitle: "Profile updated",
  saved: "Your settings have been saved.",
  updateFailed: "Update failed",
  noSubscription: "No active subscription to cancel",
  cancelFailed: "Failed to cancel subscription",
} as const;

export const GENERIC_TEXT = {
  unknownError: "Unknown error",
} as const;

/** Phone-number API answers (spec 2 §4, §5, §8), shown by the client as the server's error. */
export const PHONE_API_TEXT = {
  numberNotFound: "Phone number not found",
  agentNotFound: "Agent not found",
  agentHasNumber: "This agent already has a phone number",
  numberHasAgent: "This number is assigned to another agent. Unassign it first.",
  numberOwned: "You already own this phone number",
  numberUnavailable: "This phone number is not available",
  areaCodeInvalid: "Area code must be 3 digits",
  phoneNumberInvalid: "Phone number must be in E.164 format, e.g. +13055550123",
  limitRange: "Phone number limit must be a whole number from 1 to 100",
  localHealthy: "Local number inventory (Twilio is not configured)",
} as const;

/** 'Phone Number Limit Reached' body: the max, the current count, and where to get more. */
export const phoneLimitReachedMessage = (maxAllowed: number, currentCount: number) =>
  `You have reached your limit of ${maxAllowed} phone numbers (you have ${currentCount}). Please contact support to increase your limit.`;

export const NAV_TEXT = {
  dashboard: "Dashboard",
  agents: "Agents",
  phoneNumbers: "Phone numbers",
  callLogs: "Call Logs",
  analytics: "Appointment analysis",
  admin: "Admin Dashboard",
  settings: "Settings",
  signOut: "Sign out",
  openMenu: "Open menu",
  closeMenu: "Close menu",
  mainNavigation: "Main navigation",
} as const;

export const PAGE_TEXT = {
  notFoundTitle: "Page not found",
  notFoundText: "The page you are looking for does not exist or has moved.",
  backHome: "Back to home",
  choosePlan: "Choose your plan",
  plansFor: "Plans for",
  /** Placeholder for routes whose screens arrive with a later feature. */
  arrivesWith: (feature: string) => `This section arrives with ${feature}.`,
} as const;

export const MAILBOX_TEXT = {
  title: "Local mailbox",
  intro: "Emails the app would send, kept here because no mail service is configured.",
  filterLabel: "Recipient email",
  show: "Show",
  refresh: "Refresh",
  empty: "No emails yet.",
  to: "To",
  openLink: "Open link",
  loadFailed: "Failed to load the mailbox",
  off: "The local mailbox is off: a real mail service is configured.",
} as const;

/** Server answers of the agent endpoints that the spec leaves unworded. */
export const AGENT_API_TEXT = {
  saveBeforeActivate: "Save the agent before activating it",
  noAssistant: "Agent has no assistant",
  activateFirst: "Activate an agent before placing a test call",
  agentNotActive: "This agent is not active. Activate it before placing a test call.",
  invalidPhone: "Enter a phone number in international format (+15551234567) or a 10-digit US number",
  changedMeanwhile: "The agent was changed by another request. Please try again.",
  agentLimitReached: (limit: number) => `Your plan allows up to ${limit} agents. Upgrade to add more.`,
} as const;
