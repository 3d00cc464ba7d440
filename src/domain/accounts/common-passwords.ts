/**
 * Passwords refused because they are among the most used (and first guessed) passwords, including common
 * Spanish ones. Compared lower-cased.
 */
export const COMMON_PASSWORDS = new Set([
  "123456", "123456789", "12345678", "1234567890", "12345", "1234567", "123123", "111111", "000000", "654321",
  "666666", "121212", "112233", "123321", "987654321", "11111111", "88888888", "00000000", "12341234", "1q2w3e4r",
  "1q2w3e4r5t", "qwerty", "qwerty123", "qwertyuiop", "asdfghjk", "asdfasdf", "zxcvbnm", "password", "password1",
  "password123", "passw0rd", "p@ssw0rd", "iloveyou", "abc123", "abcd1234", "admin", "admin123", "administrator",
  "welcome", "welcome1", "letmein", "monkey", "dragon", "football", "baseball", "sunshine", "princess", "master",
  "superman", "batman", "trustno1", "starwars", "whatever", "shadow", "michael", "jennifer", "charlie", "freedom",
  "computer", "internet", "changeme", "secret", "secret123", "default", "test1234", "testtest", "guest123",
  "contraseña", "contrasena", "contraseña1", "contrasena1", "contraseña123", "contrasena123", "clave123",
  "micontraseña", "micontrasena", "teamo", "teamo123", "tequiero", "amor1234", "futbol", "futbol123", "peru1234",
  "peru123", "lima1234", "lima123", "mesa1234", "mesa12345", "comedor1", "comedor123", "minera123", "hola1234",
  "holahola", "bienvenido", "bienvenido1", "qwe12345", "aa123456", "a1234567", "a12345678", "abcdefgh",
  "iloveyou1", "princesa", "mariposa", "estrella", "corazon", "alejandro", "daniel123", "carlos123",
]);
