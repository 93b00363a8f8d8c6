package dev.atrium.identity.control.login;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AlertServiceTest {

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {
            "user:42, 42, ''",
            "user:x, null, ''",
            "user:, null, ''",
            "user:99999999999999999999, null, ''",
            "address:10.1.2.3, null, 10.1.2.3",
            "address:2001:db8::1, null, 2001:db8::1",
            "all, null, ''"})
    void whenSubjectNamesAUserOrAnAddressThenTheAuditEntryGetsIt(String subject, Long user, String address) {
        assertThat(AlertService.userOf(subject)).isEqualTo(user);
        assertThat(AlertService.addressOf(subject)).isEqualTo(address);
    }
}
