#define BOOST_TEST_MODULE schedcheck
#include <boost/test/unit_test.hpp>
