/** Seeds of random tests, printed and passed back in through a system property. */
package io.tributary.testing.random;
