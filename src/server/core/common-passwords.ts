/**
 * Passwords refused whatever the policy says (OWASP ASVS 6.2.4 asks for a check against the most
 * common passwords). Compared case-insensitively. Only entries that the rest of the policy (8+
 * characters with a letter and a digit) would otherwise accept need to be listed.
 */
const COMMON = `password1 password12 password123 password1234 passw0rd1 p4ssw0rd p@ssw0rd p@ssword1 pa55word1
abc12345 abcd1234 abc123456 1234abcd 12345abc qwerty12 qwerty123 qwerty1234 1qaz2wsx 1q2w3e4r 1q2w3e4r5t
q1w2e3r4 q1w2e3r4t5 zaq12wsx zaq1zaq1 asdf1234 asdfgh12 zxcvbn12 1qazxsw2 iloveyou1 iloveyou2 letmein1
letmein123 welcome1 welcome123 welcome2024 welcome2025 welcome2026 admin123 admin1234 administrator1
changeme1 changeme123 trustno1 monkey123 dragon123 master123 sunshine1 princess1 football1 baseball1
superman1 batman123 shadow123 michael1 jennifer1 jordan23 hunter123 summer2024 summer2025 summer2026
winter2024 winter2025 winter2026 spring2025 autumn2025 spring2026 autumn2026 test1234 test12345 testing123 user1234 guest123
portal123 arcgis123 esri1234 secret123 computer1 internet1 samsung1 google123 access14 starwars1 whatever1
1password 123password qazwsx123 1234qwer qwer1234 asdf123456 pass1234 pass12345 love1234 hello123 hello1234
charlie1 freedom1 ashley12 bailey12 killer12 soccer12 hockey12 ginger12 cookie12 pepper12 123456a 123456789a
a123456789 a1234567 a12345678 aa123456 aa12345678 abc123abc 1a2b3c4d a1b2c3d4 a1b2c3d4e5`;

const SET = new Set(COMMON.split(/\s+/).filter(Boolean));

export function isCommonPassword(password: string): boolean {
  return SET.has(password.toLowerCase());
}
