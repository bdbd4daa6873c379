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
  updateFailed: "Update failed",
  noSubscription: "No active subscription to cancel",
  cancelFailed: "Failed to cancel subscription",
} as const;

export const GENERIC_TEXT = {
  unknownError: "Unknown error",
} as const;
